// Count and footprint formulas per access, statement, loop, function and container
// (tracer/poly_counts.hpp): counting formulas of each access's domain and image, summed.
#include "tracer/poly_counts.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace cats::trace {

CountFormula CountFormula::none(std::string why) {
  CountFormula f;
  f.available = false;
  f.exact = false;
  f.reason = std::move(why);
  return f;
}

CountFormula& CountFormula::operator+=(const CountFormula& other) {
  if (!available) return *this;
  if (!other.available) return *this = other;
  terms.insert(terms.end(), other.terms.begin(), other.terms.end());
  exact = exact && other.exact;
  if (reason.empty()) reason = other.reason;
  return *this;
}

CountFormula CountFormula::scaled(std::int64_t factor) const {
  CountFormula f = *this;
  for (auto& term : f.terms)
    for (auto& piece : term.pieces) piece.value = piece.value * factor;
  return f;
}

namespace {

/* Whether every piece of "count" at "values" stays below 2^62 in magnitude, so that the 64-bit
   value and a sum of a few of them cannot wrap. */
bool smallEnough(const sym::PiecewiseCount& count, const sym::ParamValues& values) {
  GiNaC::exmap bound;
  for (const auto& p : count.params)
    if (auto it = values.find(p.get_name()); it != values.end()) bound[p] = GiNaC::numeric(static_cast<long>(it->second));
  const GiNaC::numeric limit(std::int64_t{1} << 62);
  for (const auto& piece : count.pieces) {
    GiNaC::ex v = piece.value.subs(bound).evalf();
    if (GiNaC::is_a<GiNaC::numeric>(v) && GiNaC::abs(GiNaC::ex_to<GiNaC::numeric>(v)) > limit) return false;
  }
  return true;
}

}  // namespace

std::optional<std::int64_t> CountFormula::evaluate(const sym::ParamValues& values) const {
  if (!available || terms.size() > 1000) return std::nullopt;
  std::int64_t sum = 0;
  for (const auto& term : terms) {
    auto v = term.evaluate(values);
    if (!v || !smallEnough(term, values)) return std::nullopt;
    sum += *v;
  }
  return sum;
}

namespace {

std::string domainText(const std::vector<sym::Constraint>& domain) {
  std::string out;
  for (const auto& c : domain) out += (out.empty() ? "" : " and ") + c.str();
  return out;
}

/* Whether every term has the same pieces' domains in the same order: the terms then add up
   piece by piece. */
bool sameDomains(const std::vector<sym::PiecewiseCount>& terms) {
  for (const auto& t : terms) {
    if (t.pieces.size() != terms[0].pieces.size()) return false;
    for (std::size_t p = 0; p < t.pieces.size(); ++p)
      if (domainText(t.pieces[p].domain) != domainText(terms[0].pieces[p].domain)) return false;
  }
  return true;
}

std::string pieceText(const std::vector<sym::Constraint>& domain, const sym::Expr& value) {
  std::string d = domainText(domain);
  return sym::print(value.expand()) + (d.empty() ? "" : "  when " + d);
}

}  // namespace

std::string CountFormula::str() const {
  if (!available) return "(no formula: " + reason + ")";
  std::string suffix = exact ? "" : "  (approximate: " + reason + ")";
  if (terms.empty()) return "0" + suffix;
  if (sameDomains(terms)) {
    std::string out;
    for (std::size_t p = 0; p < terms[0].pieces.size(); ++p) {
      sym::Expr sum = 0;
      for (const auto& t : terms) sum += t.pieces[p].value;
      out += (out.empty() ? "" : "; ") + pieceText(terms[0].pieces[p].domain, sum);
    }
    return (out.empty() ? "0" : out) + suffix;
  }
  std::string out;
  for (const auto& t : terms) {
    std::string text;
    for (const auto& piece : t.pieces) text += (text.empty() ? "" : "; ") + pieceText(piece.domain, piece.value);
    out += (out.empty() ? "" : " + ") + ("[" + (text.empty() ? "0" : text) + "]");
  }
  return out + suffix;
}

std::string_view toString(CountLevel level) {
  switch (level) {
    case CountLevel::Access: return "access";
    case CountLevel::Statement: return "statement";
    case CountLevel::Loop: return "loop";
    case CountLevel::Function: return "function";
    case CountLevel::Container: return "container";
  }
  return "?";
}

namespace {

/* A piecewise count as a formula ("exact" and "reason" carried over). */
CountFormula fromCount(sym::PiecewiseCount count) {
  if (count.pieces.empty() && !count.reason.empty()) return CountFormula::none(count.reason);
  CountFormula f;
  f.exact = count.exact;
  if (!count.exact) f.reason = count.reason.empty() ? "approximate (" + count.method + ")" : count.reason;
  f.terms.push_back(std::move(count));
  return f;
}

/* What an access's counts depend on besides its statement: the image (container, domain,
   subscripts) and, for lines, the shape of the array. */
std::string imageKeyOf(const Container& c, const PolyStatement& s, const PolyAccess& a) {
  std::string key = c.name + "|" + domainText(s.domain.constraints) + "|";
  for (const auto& d : s.domain.dims) key += d.get_name() + ",";
  key += "|";
  for (const auto& e : a.subscripts) key += sym::print(e) + ",";
  return key;
}

/* Counting is isl work: once per statement (points) and once per image (elements, lines), not
   once per access (`C[i][j] += ...` reads and writes one image). */
class AccessCounter {
 public:
  AccessCounter(const Trace& t, std::int64_t lineBytes, const sym::CountLimits& limits) : t_(t), lineBytes_(lineBytes), limits_(limits) {}

  /* The record of access "a" of statement "s", named "name"; "points" is countPoints of s. */
  CountRecord count(const PolyStatement& s, const CountFormula& points, const PolyAccess& a, std::string name) {
    CountRecord out;
    out.level = CountLevel::Access;
    out.name = std::move(name);
    out.loc = t_.events.at(a.event).loc;
    out.events = {a.event};
    out.container = a.container;
    out.executions = points.scaled(static_cast<std::int64_t>(a.multiplicity));
    out.bytes = out.executions.scaled(a.bytes);
    out.imageKey = imageKeyOf(t_.containers.at(a.container), s, a);
    std::string shape = out.imageKey + "|" + std::to_string(a.elementBytes);
    for (const auto& e : a.extents) shape += "|" + sym::print(e);
    auto it = images_.find(shape);
    if (it == images_.end()) {
      Image image;
      if (s.exactDomain) {
        image.elements = fromCount(sym::countImage(s.domain, a.subscripts, limits_));
        image.lines = fromCount(sym::countLines(s.domain, a.subscripts, a.extents, a.elementBytes, lineBytes_, 0, limits_));
      } else {
        image.elements = points;
        image.lines = CountFormula::none(kUnderDataBranch);
      }
      it = images_.emplace(shape, std::move(image)).first;
    }
    out.elements = it->second.elements;
    out.lines = it->second.lines;
    return out;
  }

  /* countPoints of "s"; a loop test's domain holds the exit point too: it runs once more than the body. */
  CountFormula points(const PolyStatement& s) const {
    return s.exactDomain ? fromCount(sym::countPoints(s.domain, limits_)) : CountFormula::none(kUnderDataBranch);
  }

 private:
  static constexpr const char* kUnderDataBranch = "runs under a branch on data: its domain is where it may run";
  struct Image {
    CountFormula elements, lines;
  };
  const Trace& t_;
  std::int64_t lineBytes_;
  const sym::CountLimits& limits_;
  std::map<std::string, Image> images_;
};

/* The record summing "accesses": executions and bytes add up; elements and lines are a union
   per container, with a formula when each container's accesses all touch the same image. */
CountRecord sumRecord(CountLevel level, std::string name, ir::SourceLoc loc, const std::vector<const CountRecord*>& accesses) {
  CountRecord r;
  r.level = level;
  r.name = std::move(name);
  r.loc = std::move(loc);
  std::map<std::size_t, std::vector<const CountRecord*>> byContainer;
  for (const CountRecord* a : accesses) {
    r.events.insert(r.events.end(), a->events.begin(), a->events.end());
    r.executions += a->executions;
    r.bytes += a->bytes;
    byContainer[a->container].push_back(a);
  }
  for (const auto& [container, list] : byContainer) {
    std::set<std::string> images;
    for (const CountRecord* a : list) images.insert(a->imageKey);
    if (images.size() == 1) {
      r.elements += list.front()->elements;
      r.lines += list.front()->lines;
    } else {
      r.elements += CountFormula::none("accesses with different subscripts: their union has no formula here");
      r.lines += CountFormula::none("accesses with different subscripts: their union has no formula here");
    }
  }
  return r;
}

std::string loopName(const Trace& t, std::size_t loop) {
  const Scope& s = t.scopes.at(loop);
  return s.label() + " at " + s.loc.file + ":" + std::to_string(s.loc.line) + " in " + t.functionOf(loop);
}

std::string accessName(const Event& ev) {
  return ev.loc.file + ":" + std::to_string(ev.loc.line) + ":" + std::to_string(ev.loc.column) + " " + std::string(ir::toString(ev.mode)) + " " + ev.text;
}

/* The access record of every access event: from the model, or without a formula and why. */
std::vector<CountRecord> accessRecords(const Trace& t, const PolyModel& model, std::int64_t lineBytes, const sym::CountLimits& limits) {
  std::map<std::size_t, CountRecord> byEvent;
  AccessCounter counter(t, lineBytes, limits);
  for (const auto& s : model.statements) {
    CountFormula points = counter.points(s);
    for (const auto& a : s.accesses) {
      CountRecord r = counter.count(s, points, a, accessName(t.events.at(a.event)));
      auto [it, fresh] = byEvent.emplace(a.event, r);
      if (!fresh) {  // one event in several statements (not expected): its counts add up
        it->second.executions += r.executions;
        it->second.bytes += r.bytes;
      }
    }
  }
  std::map<std::size_t, std::string> uncovered;
  for (const auto& n : model.nonAffine) uncovered[n.event] = n.reason;
  std::vector<CountRecord> out;
  for (std::size_t e = 0; e < t.events.size(); ++e) {
    const Event& ev = t.events[e];
    if (ev.kind != EventKind::Access) continue;
    if (auto it = byEvent.find(e); it != byEvent.end()) {
      out.push_back(std::move(it->second));
      continue;
    }
    CountRecord r;
    r.name = accessName(ev);
    r.loc = ev.loc;
    r.events = {e};
    r.container = ev.container;
    std::string why = ev.text + " at line " + std::to_string(ev.loc.line) + ": " + (uncovered.count(e) ? uncovered[e] : "not in the polyhedral model");
    r.executions = r.bytes = r.elements = r.lines = CountFormula::none(why);
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace

CountRecord sumEvents(const ProgramCounts& counts, CountLevel level, const std::string& name, const std::vector<std::size_t>& events) {
  std::vector<const CountRecord*> members;
  ir::SourceLoc loc;
  // Access records come first, one per access event, in event order.
  auto end = std::find_if(counts.records.begin(), counts.records.end(), [](const auto& r) { return r.level != CountLevel::Access; });
  for (std::size_t e : events) {
    auto it = std::lower_bound(counts.records.begin(), end, e, [](const CountRecord& r, std::size_t event) { return r.events.front() < event; });
    const CountRecord* found = it != end && it->events.front() == e ? &*it : nullptr;
    if (!found) return [&] {
      CountRecord r;
      r.level = level;
      r.name = name;
      r.events = events;
      r.executions = r.bytes = r.elements = r.lines = CountFormula::none("event " + std::to_string(e) + " has no record");
      return r;
    }();
    if (members.empty()) loc = found->loc;
    members.push_back(found);
  }
  return sumRecord(level, name, loc, members);
}

ProgramCounts deriveCounts(const Trace& t, const PolyModel& model, std::int64_t lineBytes, const sym::CountLimits& limits) {
  ProgramCounts out;
  out.lineBytes = lineBytes;
  out.params = model.params;
  out.coverage = model.coverage();
  out.notes.push_back("distinct lines assume line-aligned containers that share no line; distinct elements and lines of a group add up its containers'");
  out.records = accessRecords(t, model, lineBytes, limits);
  const std::size_t accessCount = out.records.size();
  auto add = [&](CountLevel level, const std::map<std::string, std::vector<std::size_t>>& groups) {
    for (const auto& [name, events] : groups) out.records.push_back(sumEvents(out, level, name, events));
  };
  std::map<std::string, std::vector<std::size_t>> statements, loops, functions, containers;
  for (const auto& s : model.statements) {
    std::string name = s.name + " at " + s.loc.file + ":" + std::to_string(s.loc.line) + " in " + s.function;
    for (const auto& a : s.accesses) statements[name].push_back(a.event);
  }
  for (std::size_t i = 0; i < accessCount; ++i) {
    std::size_t e = out.records[i].events.front();
    const Event& ev = t.events[e];
    for (std::optional<std::size_t> s = ev.scope; s; s = t.scopes.at(*s).parent)
      if (t.scopes.at(*s).kind == ScopeKind::Loop) loops[loopName(t, *s)].push_back(e);
    functions[t.functionOf(ev.scope)].push_back(e);
    containers[t.containers.at(ev.container).name].push_back(e);
  }
  add(CountLevel::Statement, statements);
  add(CountLevel::Loop, loops);
  add(CountLevel::Function, functions);
  add(CountLevel::Container, containers);
  return out;
}

}  // namespace cats::trace
