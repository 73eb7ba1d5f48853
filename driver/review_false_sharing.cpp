// `false-sharing` findings (docs/review.md): threads of an OpenMP parallel loop writing different
// bytes of the same cache lines. The simulator runs the program on one core, so the loop is
// replayed on --threads cores by the coherence model (cache/coherence.hpp) with each thread's
// addresses, before and after the fix.
#include "review_findings.hpp"

#include "cache/coherence.hpp"
#include "sim/parallel_loop.hpp"
#include "tracer/false_sharing.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>

namespace cats::driver {

namespace {

/* The coherence statistics of "loop" of "variant" (run.contexts or a transformation of it) on
   "threads" cores: the thread numbers bound per iteration, concretised like the program. */
cache::CoherenceStats coherenceOf(const ReviewInput& in, const trace::Trace& variant, const trace::ParallelLoop& loop) {
  const trace::Trace numbered = trace::threadNumbered(variant, loop, in.threads);
  const sim::Program program = concretizeVariant(in.run, numbered);
  const cache::CoherenceOptions coherence{in.threads, loop.chunk, static_cast<std::uint32_t>(std::max<std::int64_t>(in.lineBytes(), 1))};
  return cache::simulateCoherence(sim::parallelLoopIterations(numbered, program, in.run.stream, loop.scope), coherence);
}

std::string scheduleText(std::int64_t chunk) { return chunk > 0 ? fmt::format("schedule(static, {})", chunk) : "schedule(static)"; }

/* "value" rounded up to a multiple of "unit". */
std::int64_t roundUp(std::int64_t value, std::int64_t unit) { return (std::max<std::int64_t>(value, 1) + unit - 1) / unit * unit; }

/* "more" added to "into": the entries of one source loop in several calling contexts (each
   replayed on its own; the caches do not carry over from one to the next). */
void add(cache::CoherenceStats& into, const cache::CoherenceStats& more) {
  into.coherenceMisses += more.coherenceMisses;
  into.sharedLines += more.sharedLines;
  into.falselySharedLines += more.falselySharedLines;
  into.falseSharingMisses += more.falseSharingMisses;
  std::vector<std::uint32_t> tags;
  std::set_union(into.falseSharingTags.begin(), into.falseSharingTags.end(), more.falseSharingTags.begin(), more.falseSharingTags.end(),
                 std::back_inserter(tags));
  into.falseSharingTags = std::move(tags);
}

/* The coherence statistics of the loops "group" (one source loop, every calling context) of "variant". */
cache::CoherenceStats coherenceOf(const ReviewInput& in, const trace::Trace& variant, const std::vector<trace::ParallelLoop>& group) {
  cache::CoherenceStats sum;
  for (const trace::ParallelLoop& loop : group) add(sum, coherenceOf(in, variant, loop));
  return sum;
}

/* The fixed trace and loops for the falsely shared write "write" of the loops "group", with the
   recommendation, or why there is none. */
struct Fix {
  std::optional<trace::Trace> variant;
  std::vector<trace::ParallelLoop> loops;
  std::string recommendation;
  std::string notEvaluated;
};

Fix fixFor(const ReviewInput& in, const std::vector<trace::ParallelLoop>& group, const trace::Event& write) {
  const trace::Trace& contexts = in.run.contexts;
  const trace::Container& c = contexts.containers[write.container];
  const trace::ParallelLoop& loop = group.front();
  Fix fix{std::nullopt, group, {}, {}};
  if (trace::indexedByThread(contexts, write.container)) {
    const std::int64_t factor = std::max<std::int64_t>(1, in.lineBytes() / std::max<std::int64_t>(c.elementBytes, 1));
    fix.variant = trace::threadDataSpread(contexts, write.container, factor, &fix.notEvaluated);
    fix.recommendation = fmt::format("give each thread its own cache line of '{}': index it by the thread number times {} ({}[tid * {}], "
                                     "the array {} times longer) or pad its element to {} bytes",
                                     c.name, factor, c.name, factor, factor, in.lineBytes());
    return fix;
  }
  const std::int64_t lineElements = std::max<std::int64_t>(1, in.lineBytes() / std::max<std::int64_t>(write.bytes, 1));
  const std::int64_t threads = in.threads;
  const std::int64_t chunk = roundUp(loop.chunk > 0 ? loop.chunk : (loop.trips + threads - 1) / threads, lineElements);
  fix.variant = contexts;
  for (trace::ParallelLoop& l : fix.loops) {
    l.chunk = chunk;
    fix.variant = trace::rescheduled(*fix.variant, l.scope, chunk);
  }
  fix.recommendation = fmt::format("deal whole cache lines to each thread: {} on the loop at line {} (a multiple of the {} elements of a "
                                   "{}-byte line; '{}' should start on a line boundary)",
                                   scheduleText(chunk), loop.loc.line, lineElements, in.lineBytes(), c.name);
  return fix;
}

/* The static parallel loops of "contexts" by source loop, every calling context of one together. */
std::vector<std::vector<trace::ParallelLoop>> parallelLoopsBySource(const ReviewInput& in) {
  const std::vector<trace::ParallelLoop> loops = trace::parallelLoops(in.run.contexts, in.run.concretize.bindings);
  std::vector<std::vector<trace::ParallelLoop>> out;
  for (const auto& group : groupedBy(loops, [](const trace::ParallelLoop& l) { return l.loc.str(); })) {
    out.emplace_back();
    for (const trace::ParallelLoop* loop : group) out.back().push_back(*loop);
  }
  return out;
}

}  // namespace

/* Each static parallel loop (every calling context of it together) replayed on the cores; a
   finding where threads miss on lines whose bytes they write apart, kept when the fixed variant
   has fewer coherence misses (or could not be evaluated). The fix reorders no iteration's work,
   so it is legal. */
std::vector<report::Finding> falseSharingFindings(const ReviewInput& in) {
  std::vector<report::Finding> out;
  if (in.threads < 2) return out;
  for (const std::vector<trace::ParallelLoop>& group : parallelLoopsBySource(in)) {
    const trace::ParallelLoop& loop = group.front();
    const cache::CoherenceStats before = coherenceOf(in, in.run.contexts, group);
    if (before.falseSharingMisses == 0 || before.falseSharingTags.empty()) continue;
    const trace::Event& write = in.run.contexts.events[before.falseSharingTags.front()];
    const std::string& name = in.run.contexts.containers[write.container].name;
    report::Finding f = findingAt("false-sharing", in.run.contexts.functionOf(write.scope), write.loc);
    f.message = fmt::format("{} threads of the parallel loop at line {} ({}) write different bytes of the same cache lines of '{}' ({}): "
                            "{} line(s) falsely shared, {} coherence misses",
                            in.threads, loop.loc.line, scheduleText(loop.chunk), name, write.text, before.falselySharedLines,
                            before.falseSharingMisses);
    if (group.size() > 1) f.message += fmt::format(" (the loop runs in {} calling contexts: lines and misses counted in each)", group.size());
    Fix fix = fixFor(in, group, write);
    if (!fix.variant) {
      f.message += fmt::format("; not evaluated: {}", fix.notEvaluated);
      out.push_back(std::move(f));
      continue;
    }
    f.legal = true;
    const cache::CoherenceStats after = coherenceOf(in, *fix.variant, fix.loops);
    if (after.coherenceMisses >= before.coherenceMisses) continue;  // the fix buys nothing: nothing to say (and nothing to simulate)
    predictGain(f, in, *fix.variant);
    f.predicted.insert(f.predicted.begin(), report::PredictedMisses{"coherence", before.coherenceMisses, after.coherenceMisses});
    f.message += fmt::format("; {} after the fix", after.coherenceMisses);
    f.recommendation = fix.recommendation;
    out.push_back(std::move(f));
  }
  return out;
}

}  // namespace cats::driver
