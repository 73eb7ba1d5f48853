// The compiler's reports over the model's plan. Positions are how the two meet: a reported loop
// names its line and a column at or after the loop's keyword (GCC prints the condition's column,
// Clang the keyword's), a reported call its call site. The same source loop can have several
// copies in the binary (an out-of-line function and its inlined copies; GCC's versioned and
// epilogue loops): a position counts as vectorised when any copy of it is, with its widest factor,
// since the copies the contexts trace follows from main are the inlined ones GCC optimises best.
#include "sim/compiler_report.hpp"
#include "view.hpp"

#include "symbolic/expr.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <tuple>

namespace cats::sim {

namespace {

/* File names as one key: the canonical path when the file exists, else the name as written. */
class FileKeys {
 public:
  const std::string& key(const std::string& file) {
    auto [it, fresh] = keys_.try_emplace(file);
    if (fresh) {
      std::error_code error;
      std::filesystem::path canonical = std::filesystem::weakly_canonical(file, error);
      it->second = error ? file : canonical.string();
    }
    return it->second;
  }

 private:
  std::map<std::string, std::string> keys_;
};

using Position = std::tuple<std::string, unsigned, unsigned>;  // file key, line, column

/* What all reported copies of one loop say together. */
struct LoopVerdict {
  bool vectorized = false;
  int factor = 0, bytes = 0, interleave = 0;
  bool versioned = false, saysVersioning = false;
  std::string text;  // the first line that said it was vectorised, else the first line
};

void merge(LoopVerdict& verdict, const ReportedLoop& loop) {
  if (verdict.text.empty() || (loop.vectorized && !verdict.vectorized)) verdict.text = loop.text;
  verdict.vectorized = verdict.vectorized || loop.vectorized;
  verdict.factor = std::max(verdict.factor, loop.vectorFactor);
  verdict.bytes = std::max(verdict.bytes, loop.vectorBytes);
  verdict.interleave = std::max(verdict.interleave, loop.interleave);
  verdict.versioned = verdict.versioned || loop.versioned;
  verdict.saysVersioning = verdict.saysVersioning || loop.saysVersioning;
}

/* Per loop scope, the smallest access in its own body (not in inner loops): GCC's vector factor
   is the vector's bytes over it. */
std::map<std::size_t, std::int64_t> elementBytes(const trace::Trace& contexts) {
  std::map<std::size_t, std::int64_t> smallest;
  for (const trace::Event& e : contexts.events) {
    if (e.kind != trace::EventKind::Access || e.loopHeader || e.bytes <= 0) continue;
    if (auto loop = contexts.innermostLoop(e.scope)) {
      auto [it, fresh] = smallest.try_emplace(*loop, e.bytes);
      if (!fresh) it->second = std::min(it->second, e.bytes);
    }
  }
  return smallest;
}

/* Iterations of "loop" when its start, bound and step are numbers in the contexts trace. */
std::optional<std::int64_t> tripsOf(const trace::Scope& loop) {
  auto start = sym::toInteger(loop.start), bound = sym::toInteger(loop.bound), step = sym::toInteger(loop.step);
  if (!start || !bound || !step || *step <= 0) return std::nullopt;
  std::int64_t end = *bound + (loop.comparison == ir::Comparison::LessEqual ? 1 : 0);
  if (loop.comparison != ir::Comparison::Less && loop.comparison != ir::Comparison::LessEqual) return std::nullopt;
  return end <= *start ? 0 : (end - *start + *step - 1) / *step;
}

/* "d" (of "loop") as "verdict" says; "element" is the smallest access of the loop's body (4
   bytes when it has none). A vectorised loop keeps a scalar epilogue unless its trip count is
   known here and a multiple of the iterations one vector iteration does. */
void decideLoop(const LoopVerdict& verdict, std::int64_t element, const trace::Scope& loop, LoopDecision& d) {
  d.source = DecisionSource::Report;
  d.reason = "the compiler's report: " + verdict.text;
  d.replacedBy.clear();
  d.removed = false;
  d.copiesFrom.reset();
  d.slp = false;  // the report says SLP where there is any (applyStraightLine)
  if (!verdict.vectorized) {
    d.vectorFactor = 1;
    d.vectorBytes = 0;
    d.interleave = std::max(verdict.interleave, 1);
    d.runtimeAliasCheck = false;
    d.scalarEpilogue = false;
    return;
  }
  int factor = verdict.factor;
  if (factor <= 0 && verdict.bytes > 0) factor = static_cast<int>(std::max<std::int64_t>(verdict.bytes / element, 1));
  d.vectorFactor = std::max(factor, 1);
  d.vectorBytes = verdict.bytes > 0 ? verdict.bytes : static_cast<int>(d.vectorFactor * element);
  d.interleave = std::max(verdict.interleave, 1);
  if (verdict.saysVersioning) d.runtimeAliasCheck = verdict.versioned;
  std::optional<std::int64_t> trips = tripsOf(loop);
  d.scalarEpilogue = !trips || *trips % (static_cast<std::int64_t>(d.vectorFactor) * d.interleave) != 0;
}

/* Loop scopes of "contexts" by (file key, line), each line's loops by their column. */
std::map<std::pair<std::string, unsigned>, std::map<unsigned, std::vector<std::size_t>>> loopsByLine(const trace::Trace& contexts,
                                                                                                      FileKeys& files) {
  std::map<std::pair<std::string, unsigned>, std::map<unsigned, std::vector<std::size_t>>> lines;
  for (const trace::Scope& s : contexts.scopes)
    if (s.kind == trace::ScopeKind::Loop && s.loc.line > 0) lines[{files.key(s.loc.file), s.loc.line}][s.loc.column].push_back(s.id);
  return lines;
}

/* The column key of the loop a report at "column" names among "columns" of its line: the last
   loop starting at or before it; with no column, the line's only loop. */
std::optional<unsigned> loopColumn(const std::map<unsigned, std::vector<std::size_t>>& columns, unsigned column) {
  if (column == 0) return columns.size() == 1 ? std::optional(columns.begin()->first) : std::nullopt;
  auto after = columns.upper_bound(column);
  if (after == columns.begin()) return std::nullopt;
  return std::prev(after)->first;
}

void applyLoops(const trace::Trace& contexts, const ReportedDecisions& reported, CompilationPlan& plan, FileKeys& files, ReportUse& use) {
  auto lines = loopsByLine(contexts, files);
  std::map<Position, LoopVerdict> verdicts;
  for (const ReportedLoop& loop : reported.loops) {
    if (loop.straightLine) continue;
    auto line = lines.find({files.key(loop.loc.file), loop.loc.line});
    std::optional<unsigned> column = line == lines.end() ? std::nullopt : loopColumn(line->second, loop.loc.column);
    if (!column) {
      ++use.unmatchedLoops;
      continue;
    }
    merge(verdicts[{line->first.first, line->first.second, *column}], loop);
  }
  std::map<std::size_t, std::int64_t> elements = verdicts.empty() ? std::map<std::size_t, std::int64_t>() : elementBytes(contexts);
  for (const auto& [position, verdict] : verdicts)
    for (std::size_t scope : lines[{std::get<0>(position), std::get<1>(position)}][std::get<2>(position)])
      if (LoopDecision* d = compiler::findByScope(plan.loops, scope)) decideLoop(verdict, elements.count(scope) ? elements[scope] : 4, contexts.scopes[scope], *d);
  use.loopsFromReport = verdicts.size();
  std::size_t loops = 0;
  for (const auto& [line, columns] : lines) loops += columns.size();
  use.loopsFromModel = loops - verdicts.size();
}

/* SLP reports name a statement: the loops around accesses on its line pack their body into
   vectors. Only loops the report decides take it, so that a Model decision stays the model's. */
void applyStraightLine(const trace::Trace& contexts, const ReportedDecisions& reported, CompilationPlan& plan, FileKeys& files) {
  std::map<std::pair<std::string, unsigned>, const ReportedLoop*> statements;
  for (const ReportedLoop& loop : reported.loops)
    if (loop.straightLine) statements.try_emplace({files.key(loop.loc.file), loop.loc.line}, &loop);
  if (statements.empty()) return;
  for (const trace::Event& e : contexts.events) {
    if (e.kind != trace::EventKind::Access) continue;
    auto statement = statements.find({files.key(e.loc.file), e.loc.line});
    std::optional<std::size_t> loop = statement == statements.end() ? std::nullopt : contexts.innermostLoop(e.scope);
    if (!loop) continue;
    LoopDecision* d = compiler::findByScope(plan.loops, *loop);
    if (d && d->source == DecisionSource::Report && !d->slp) {
      d->slp = true;
      d->reason += "; straight-line code packed: " + statement->second->text;
    }
  }
}

void applyCalls(const trace::Trace& contexts, const ReportedDecisions& reported, CompilationPlan& plan, FileKeys& files, ReportUse& use) {
  using Site = std::tuple<std::string, unsigned, std::string>;  // file key, line, callee
  std::map<Site, std::vector<std::size_t>> sites;
  for (const trace::Scope& s : contexts.scopes)
    if (s.kind == trace::ScopeKind::Call) sites[{files.key(s.loc.file), s.loc.line, s.function}].push_back(s.id);
  std::map<Site, const ReportedCall*> verdicts;
  for (const ReportedCall& call : reported.calls) {
    Site site{files.key(call.loc.file), call.loc.line, call.callee};
    if (!sites.count(site)) {
      ++use.unmatchedCalls;
      continue;
    }
    const ReportedCall*& verdict = verdicts[site];
    if (!verdict || (call.inlined && !verdict->inlined)) verdict = &call;
  }
  for (const auto& [site, call] : verdicts)
    for (std::size_t scope : sites[site])
      if (CallDecision* d = compiler::findByScope(plan.calls, scope)) {
        d->inlined = call->inlined;
        d->reason = "the compiler's report: " + call->text;
        d->source = DecisionSource::Report;
      }
  use.callsFromReport = verdicts.size();
  use.callsFromModel = sites.size() - verdicts.size();
}

}  // namespace

ReportUse applyReportedDecisions(const trace::Trace& contexts, const ReportedDecisions& reported, CompilationPlan& plan) {
  FileKeys files;
  ReportUse use;
  applyLoops(contexts, reported, plan, files, use);
  applyStraightLine(contexts, reported, plan, files);
  applyCalls(contexts, reported, plan, files, use);
  return use;
}

}  // namespace cats::sim
