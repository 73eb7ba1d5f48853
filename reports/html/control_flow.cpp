// The control-flow data-dependency view (C.A.T.S. paper, section 4.3): functions, loops, branches
// and parallel regions as nested boxes, each loop with its dependence verdict (parallel,
// reduction, carried dependences), nests with their interchange/tiling legality, fusion
// candidates, and the dependence edges between statements.
#include "parts.hpp"

#include <fmt/format.h>

#include <map>
#include <set>

namespace cats::report::html {

namespace {

std::string key(const ir::SourceLoc& loc) { return loc.file + ":" + std::to_string(loc.line); }

/* What the dependence analysis said about the loops, by source place (a loop analysed in
   several calling contexts gets each distinct sentence once). */
struct Verdicts {
  std::map<std::string, std::set<std::string>> loops;
  std::map<std::string, std::set<std::string>> nests;

  explicit Verdicts(const trace::ProgramDependences* deps) {
    if (!deps) return;
    for (const trace::LoopVerdict& v : deps->loops) {
      std::string text;
      if (!v.unknown.empty()) text = "unknown: " + v.unknown;
      else if (v.parallel) text = "parallel (no carried dependence)";
      else if (v.reduction) text = "reduction";
      else {
        text = "carries";
        for (const auto& c : v.carried) text += " " + c.kind + " on " + c.container + " " + trace::distanceText(c.distance);
      }
      loops[key(v.loop.loc)].insert(text);
    }
    for (const trace::NestVerdict& n : deps->nests) {
      if (n.band.size() < 2) continue;
      std::string text = "nest of " + std::to_string(n.band.size()) + ": ";
      if (!n.unknown.empty()) text += "unknown (" + n.unknown + ")";
      else {
        text += n.permutable ? "tiling legal" : "tiling not legal";
        for (std::size_t k = 0; k < n.interchangeLegal.size(); ++k)
          text += fmt::format("; interchange {} / {} {}", n.band[k].iterator, n.band[k + 1].iterator, n.interchangeLegal[k] ? "legal" : "not legal");
      }
      nests[key(n.band.front().loc)].insert(text);
    }
  }
};

const char* kindClass(trace::ScopeKind kind) {
  switch (kind) {
    case trace::ScopeKind::Loop: return "loop";
    case trace::ScopeKind::Branch: return "cond";
    case trace::ScopeKind::Parallel: return "para";
    default: return "func";
  }
}

struct Tree {
  const trace::Trace& t;
  const Verdicts& verdicts;
  std::vector<std::vector<std::size_t>> children;
  std::vector<std::size_t> accesses;  // access events directly in each scope

  std::string describe(const trace::Scope& s) const {
    switch (s.kind) {
      case trace::ScopeKind::Loop:
        if (!s.opaqueReason.empty()) return "loop (" + s.opaqueReason + ")";
        return fmt::format("for {} from {} to {} step {}", s.iterator, sym::print(s.start), sym::print(s.bound), sym::print(s.step)) +
               (s.parallel ? " (parallel)" : "");
      case trace::ScopeKind::Branch: return s.label();
      case trace::ScopeKind::Call: return "call " + s.function;
      case trace::ScopeKind::Function: return "function " + s.function;
      default: return s.label();
    }
  }

  std::string node(std::size_t id, int depth) const {
    const trace::Scope& s = t.scopes[id];
    std::string out = fmt::format("<details class=\"node {}\"{}><summary><b>{}</b> <span class=\"loc\">{}</span>", kindClass(s.kind),
                                  depth < 4 ? " open" : "", escape(describe(s)), escape(s.loc.str()));
    if (accesses[id]) out += fmt::format(" <span class=\"count\">{} accesses</span>", accesses[id]);
    out += "</summary>";
    if (s.kind == trace::ScopeKind::Loop) {
      auto v = verdicts.loops.find(key(s.loc));
      if (v != verdicts.loops.end())
        for (const std::string& text : v->second)
          out += fmt::format("<div class=\"verdict {}\">{}</div>", text.rfind("parallel", 0) == 0 ? "ok" : "dep", escape(text));
      auto n = verdicts.nests.find(key(s.loc));
      if (n != verdicts.nests.end())
        for (const std::string& text : n->second) out += "<div class=\"verdict nest\">" + escape(text) + "</div>";
    }
    for (std::size_t c : children[id]) out += node(c, depth + 1);
    return out + "</details>\n";
  }
};

std::string edgesTable(const trace::ProgramDependences& deps) {
  constexpr std::size_t kMaxEdges = 500;
  std::string out = "<h3>Dependences between statements</h3>\n<table class=\"sortable\"><thead><tr><th>kind</th><th>container</th>"
                    "<th>source</th><th>sink</th><th>distance</th><th>carried by</th></tr></thead><tbody>\n";
  std::set<std::string> seen;
  std::size_t rows = 0;
  for (const trace::DependenceEdge& d : deps.dependences) {
    const auto& from = deps.statements.at(d.source);
    const auto& to = deps.statements.at(d.sink);
    std::string row = fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n", escape(d.kind), escape(d.container),
                                  escape(from.loc.str()), escape(to.loc.str()), escape(trace::distanceText(d.distance)),
                                  d.carriedBy ? escape(d.carriedBy->label()) : "loop-independent");
    if (!seen.insert(row).second) continue;
    if (++rows > kMaxEdges) continue;
    out += row;
  }
  out += "</tbody></table>\n";
  if (rows > kMaxEdges) out += fmt::format("<p class=\"warning\">{} more dependences are not listed.</p>\n", number(rows - kMaxEdges));
  return out;
}

std::string fusionList(const trace::ProgramDependences& deps) {
  if (deps.fusion.empty()) return "<p>No fusion candidates (adjacent loops over the same containers).</p>\n";
  std::string out = "<h3>Fusion candidates</h3><ul>\n";
  std::set<std::string> seen;
  for (const trace::FusionVerdict& f : deps.fusion) {
    std::string shared;
    for (const auto& c : f.shared) shared += (shared.empty() ? "" : ", ") + c;
    std::string item = fmt::format("<li class=\"{}\">{} and {}: {} ({}; shared {}){}</li>\n", f.legal ? "ok" : "dep", escape(f.first.label()), escape(f.second.label()),
                                   f.legal ? "fusion legal" : "fusion not legal", f.sameBounds ? "same bounds" : "different bounds", escape(shared),
                                   f.reason.empty() ? "" : " — " + escape(f.reason));
    if (seen.insert(item).second) out += item;
  }
  return out + "</ul>\n";
}

}  // namespace

std::string controlFlowSection(const HtmlReportInput& in) {
  const trace::Trace& t = in.summaries;
  Verdicts verdicts(in.dependences);
  Tree tree{t, verdicts, std::vector<std::vector<std::size_t>>(t.scopes.size()), std::vector<std::size_t>(t.scopes.size(), 0)};
  for (const trace::Scope& s : t.scopes)
    if (s.parent) tree.children[*s.parent].push_back(s.id);
  for (const trace::Event& e : t.events)
    if (e.kind == trace::EventKind::Access) ++tree.accesses[e.scope];
  std::string out = "<section id=\"control-flow\"><h2>Control flow and data dependences</h2>\n"
                    "<p>Every analysed function once, with its loops (red), branches (blue) and parallel regions (green); "
                    "a loop's line says what the dependence analysis found for it.</p>\n";
  if (!in.dependences) out += "<p class=\"warning\">Dependences were not computed.</p>\n";
  else if (in.dependences->approximate)
    out += fmt::format("<p class=\"warning\">The polyhedral model covers {:.0f}% of the accesses; loops with other accesses have no verdict.</p>\n",
                       100 * in.dependences->coverage);
  out += "<div class=\"tree\">\n";
  for (std::size_t c : tree.children.empty() ? std::vector<std::size_t>{} : tree.children[0]) out += tree.node(c, 0);
  out += "</div>\n";
  if (in.dependences) out += fusionList(*in.dependences) + edgesTable(*in.dependences);
  return out + "</section>\n";
}

}  // namespace cats::report::html
