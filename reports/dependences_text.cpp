// The dependence summary as text: one line per loop first (what a reader asks: "can this loop
// run in parallel?"), then nests, fusion, the dependences themselves and what was left out.
#include "reports/dependences.hpp"

#include <fmt/format.h>

namespace cats::report {

namespace {

std::string verdict(const trace::LoopVerdict& v) {
  if (!v.unknown.empty()) return "unknown (" + v.unknown + ")";
  if (v.parallel) return "parallel";
  return v.reduction ? "reduction" : "carried";
}

std::string carriedText(const trace::LoopVerdict& v) {
  std::string out;
  for (const auto& c : v.carried)
    out += (out.empty() ? "" : ", ") + c.kind + " " + c.container + " " + trace::distanceText(c.distance);
  return out;
}

std::string bandText(const trace::NestVerdict& n) {
  std::string out;
  for (const auto& l : n.band) out += (out.empty() ? "" : ",") + l.iterator;
  return out;
}

std::string statementText(const trace::ProgramDependences& deps, std::size_t s) {
  const auto& st = deps.statements.at(s);
  return st.name + " (" + st.loc.str() + ")";
}

void loops(const trace::ProgramDependences& deps, std::string& out) {
  out += "loops:\n";
  if (deps.loops.empty()) out += "  (none)\n";
  for (const auto& v : deps.loops) {
    out += fmt::format("  {:<12} {:<20} {:<6} {}", v.loop.function, v.loop.loc.str(), v.loop.iterator, verdict(v));
    if (!v.carried.empty() && v.unknown.empty()) out += "  carries " + carriedText(v);
    out += "\n";
  }
}

void nests(const trace::ProgramDependences& deps, std::string& out) {
  if (deps.nests.empty()) return;
  out += "nests:\n";
  for (const auto& n : deps.nests) {
    out += fmt::format("  {:<20} {:<8} ", n.band.front().loc.str(), bandText(n));
    if (!n.unknown.empty()) {
      out += "unknown (" + n.unknown + ")\n";
      continue;
    }
    out += n.permutable ? "permutable (tiling legal)" : "not permutable (tiling illegal)";
    for (std::size_t k = 0; k < n.interchangeLegal.size(); ++k)
      out += fmt::format("; interchange {}<->{} {}", n.band[k].iterator, n.band[k + 1].iterator,
                         n.interchangeLegal[k] ? "legal" : "illegal");
    out += "\n";
  }
}

void fusion(const trace::ProgramDependences& deps, std::string& out) {
  if (deps.fusion.empty()) return;
  out += "fusion candidates:\n";
  for (const auto& f : deps.fusion) {
    std::string shared;
    for (const auto& c : f.shared) shared += (shared.empty() ? "" : ",") + c;
    out += fmt::format("  {} + {}  share {}: ", f.first.label(), f.second.label(), shared);
    if (f.legal && f.sameBounds) out += "legal, saves up to " + sym::print(f.savedBytes) + " bytes of traffic\n";
    else out += std::string(f.legal ? "legal" : "illegal") + " (" + f.reason + ")\n";
  }
}

void edges(const trace::ProgramDependences& deps, std::string& out) {
  out += "dependences:\n";
  if (deps.dependences.empty()) out += "  (none)\n";
  for (const auto& d : deps.dependences) {
    out += fmt::format("  {:<6} {:<10} {} -> {}  distance {}  {}\n", d.kind, d.container, statementText(deps, d.source),
                       statementText(deps, d.sink), trace::distanceText(d.distance),
                       d.carriedBy ? "carried by " + d.carriedBy->label() : std::string("loop-independent"));
  }
  for (const auto& r : deps.recurrences) {
    std::string names;
    for (std::size_t s : r) names += (names.empty() ? "" : " ") + deps.statements.at(s).name;
    out += "  recurrence: " + names + "\n";
  }
}

void unknown(const trace::ProgramDependences& deps, std::string& out) {
  if (deps.unknown.empty()) return;
  out += "not in the model:\n";
  for (const auto& u : deps.unknown) out += fmt::format("  {}: {}  unknown ({})\n", u.loc.str(), u.text, u.reason);
}

}  // namespace

std::string dependencesText(const trace::ProgramDependences& deps) {
  std::string out = fmt::format("Dependences: {} statements, {} dependences, model coverage {:.0f}%", deps.statements.size(),
                                deps.dependences.size(), deps.coverage * 100);
  out += deps.approximate ? "  (approximate: " : "\n";
  for (std::size_t k = 0; k < deps.reasons.size() && deps.approximate; ++k) out += (k ? "; " : "") + deps.reasons[k];
  if (deps.approximate) out += ")\n";
  out += "\n";
  loops(deps, out);
  nests(deps, out);
  fusion(deps, out);
  edges(deps, out);
  unknown(deps, out);
  return out;
}

}  // namespace cats::report
