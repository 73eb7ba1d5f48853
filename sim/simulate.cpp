// The simulation loop: records in batches from the stream, one access each (MruHierarchy where it
// applies, else Hierarchy with demand-only outcomes: the counters need no more), the outcome added
// to the counters of the record's trace event.
#include "sim/simulate.hpp"

#include "attribution.hpp"
#include "cache/mru_hierarchy.hpp"
#include "engine_set.hpp"
#include "sim/flatten_loops.hpp"
#include "sim/line_classes.hpp"
#include "sim/partition.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <exception>
#include <limits>
#include <optional>
#include <stdexcept>
#include <thread>
#include <type_traits>

#include "repeat_warp.hpp"
#include "span_lines.hpp"

namespace cats::sim {

LevelCounts& LevelCounts::operator+=(const LevelCounts& o) {
  reads += o.reads;
  writes += o.writes;
  readMisses += o.readMisses;
  writeMisses += o.writeMisses;
  for (std::size_t i = 0; i < missClass.size(); ++i) missClass[i] += o.missClass[i];
  return *this;
}

namespace {

constexpr std::size_t kBatch = 4096;
constexpr std::int64_t kSpanIterations = kBatch / 2;  // a leaf's iterations simulated in place per stretch, at most

/* A Hierarchy that tracks fillers: it is told each record's trace event before its access. */
class TaggedHierarchy : public cache::Hierarchy {
 public:
  using Hierarchy::Hierarchy;
};

/* One record through "hierarchy" (every engine but TaggedHierarchy ignores the tag). */
template <typename Engine, typename Outcome>
void feed(Engine& hierarchy, const Record& r, Outcome& outcome) {
  hierarchy.access(r.address, r.bytes, r.write, outcome);
}
void feed(TaggedHierarchy& hierarchy, const Record& r, cache::Outcome& outcome) {
  hierarchy.setRequester(r.tag);
  hierarchy.access(r.address, r.bytes, r.write, outcome);
}
constexpr std::uint64_t kProgressEvery = std::uint64_t{1} << 24;

/* The attribution functions as function objects: passed as pointers, run<> would call them
   through the pointer for every record instead of inlining them. */
constexpr auto kAttribute = [](const cache::Outcome& outcome, std::size_t levels, bool isWrite, LevelCounts* counts) {
  attribute(outcome, levels, isWrite, counts);
};
constexpr auto kAttributeMru = [](const cache::MruOutcome& outcome, std::size_t levels, bool isWrite, LevelCounts* counts) {
  attributeMru(outcome, levels, isWrite, counts);
};

/* Where the first level of each configuration of "hierarchy" sits among its levels: one engine
   is one configuration; an EngineSet says where each of its members starts. */
template <typename Engine>
std::array<std::size_t, 1> firstLevels(const Engine& /*hierarchy*/) {
  return {0};
}
const std::vector<std::size_t>& firstLevels(const EngineSet& set) { return set.firstLevels(); }

/* A split simulation's share "outcome" of an access spanning both parts: the second part pushes
   it to the first, which ORs the second's into it. False if another thread failed. */
bool handOver(const Partition& partition, cache::MruOutcome& outcome) {
  cache::MruOutcome other;
  const bool passed = partition.part != 0 ? partition.channel->push(outcome, *partition.stop) : partition.channel->pop(other, *partition.stop);
  if (!passed) {
    if (partition.stop->load()) return false;
    throw std::logic_error("the threads of a split simulation met different accesses spanning their parts");
  }
  outcome.accessed |= other.accessed;
  outcome.missed |= other.missed;
  return true;
}

/* One batch on a split simulation's thread (docs/performance.md, "Threads"): the one-line
   accesses of its part, and its share of every access spanning parts, which the first part
   counts once with the outcome of the second part's lines. The accesses it counted; nullopt if
   another thread failed. */
template <typename Attribute>
std::optional<std::uint64_t> runSplitBatch(const std::vector<Record>& batch, std::size_t n, cache::MruHierarchy& hierarchy, cache::MruOutcome& outcome,
                                           std::size_t levels, std::vector<LevelCounts>& counts, Attribute attribute,
                                           const Partition& partition, std::uint64_t& spanning) {
  std::uint64_t own = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const Record& r = batch[i];
    const bool spans = partition.spans(r.address, r.bytes);
    if (!spans && !partition.owns(r.address)) continue;
    LevelCounts* event = &counts[static_cast<std::size_t>(r.tag) * levels];
    if (!spans) {
      hierarchy.access(r.address, r.bytes, r.write, outcome);
      attribute(outcome, levels, r.write, event);
      ++own;
      continue;
    }
    ++spanning;
    hierarchy.accessPart(r.address, r.bytes, r.write, partition.bit, partition.mask, partition.part, outcome);
    if (!handOver(partition, outcome)) return std::nullopt;
    if (partition.part != 0) continue;
    hierarchy.countAccess(r.write, outcome);
    attribute(outcome, levels, r.write, event);
    ++own;
  }
  if (partition.part != 0) partition.channel->flush();
  return own;
}

/* Accesses run<> counted without simulating them one by one. */
struct Skipped {
  std::uint64_t warped = 0;  // warping over repeating iterations and line runs
  std::uint64_t bulk = 0;    // first-level hits of offered runs
};

/* Whether the first level of "hierarchy" holds the line of each of the "count" records
   recordAt(k) that "mine" takes, written ones dirty (docs/performance.md, "Bulk hits"). */
template <typename Engine, typename RecordAt, typename Mine>
bool holdsLines(const Engine& hierarchy, std::size_t count, RecordAt recordAt, Mine mine) {
  for (std::size_t k = 0; k < count; ++k) {
    const Record r = recordAt(k);
    if (mine(r) && !hierarchy.firstLevelHolds(r.address, r.write)) return false;
  }
  return true;
}

/* Reads and writes added to the first-level counters of the events of "count" accesses:
   access k (tag, write) timesOf(k) more first-level hits. The engine's own counters are the
   caller's. */
struct FirstLevelHits {
  std::uint64_t reads = 0, writes = 0;
};
template <typename Engine, typename AccessAt, typename TimesOf>
FirstLevelHits countFirstLevelHits(const Engine& hierarchy, std::size_t levels, std::vector<LevelCounts>& counts, std::size_t count,
                                   AccessAt accessAt, TimesOf timesOf) {
  FirstLevelHits hits;
  for (std::size_t k = 0; k < count; ++k) {
    const auto times = static_cast<std::uint64_t>(timesOf(k));
    if (times == 0) continue;
    const auto& a = accessAt(k);
    LevelCounts* event = &counts[static_cast<std::size_t>(a.tag) * levels];
    for (std::size_t first : firstLevels(hierarchy)) (a.write ? event[first].writes : event[first].reads) += times;
    (a.write ? hits.writes : hits.reads) += times;
  }
  return hits;
}

/* The hits counted into both the events and the engine. The accesses counted. */
template <typename Engine>
std::uint64_t addFirstLevelHits(Engine& hierarchy, const FirstLevelHits& hits) {
  hierarchy.addFirstLevelHits(hits.reads, hits.writes);
  return hits.reads + hits.writes;
}

/* A run of "repeats" iterations repeating the "count" records "last" of the iteration that
   just went through "hierarchy" (docs/performance.md, "Bulk hits"): if the first level still
   holds every line they used (written ones dirty), its repetitions are first-level hits that
   change nothing but the counters, counted here. The accesses counted (those "mine" takes), or
   nothing if the lines are not all held. */
template <typename Engine, typename Mine>
std::optional<std::uint64_t> countRunInBulk(const Record* last, std::size_t count, std::int64_t repeats, Engine& hierarchy,
                                            std::size_t levels, std::vector<LevelCounts>& counts, Mine mine) {
  const auto recordAt = [last](std::size_t k) -> const Record& { return last[k]; };
  if (!holdsLines(hierarchy, count, recordAt, mine)) return std::nullopt;
  return addFirstLevelHits(hierarchy, countFirstLevelHits(hierarchy, levels, counts, count, recordAt, [&](std::size_t k) {
                             return mine(last[k]) ? repeats : 0;
                           }));
}

/* The run the stream offered after its iteration's records "last" went through "hierarchy",
   counted in bulk if it can be (countRunInBulk). The accesses counted; nullopt if declined. */
template <typename Engine, typename Mine>
std::optional<std::uint64_t> takeRun(AddressStream& stream, const Record* last, Engine& hierarchy, std::size_t levels,
                                     std::vector<LevelCounts>& counts, Mine mine) {
  const LeafRun& offer = stream.offeredRun();
  const std::optional<std::uint64_t> counted = countRunInBulk(last, offer.count, offer.repeats, hierarchy, levels, counts, mine);
  stream.resolveRun(counted.has_value());
  return counted;
}

/* Takes every record: a simulation on one thread. */
struct EveryRecord {
  bool operator()(const Record& /*r*/) const { return true; }
};

/* Takes the records of one part of a split simulation (Partition::owns), its bits held by value
   so that the test per access reads no memory; a mask of 0 takes every record. */
struct PartBits {
  std::uint64_t mask = 0;  // the part's bits in place: no shift per access
  std::uint64_t part = 0;
  const Partition* partition = nullptr;

  static PartBits of(const Partition* partition) {
    return partition ? PartBits{partition->mask << partition->bit, partition->part << partition->bit, partition} : PartBits{};
  }
  bool owns(std::uint64_t address) const { return (address & mask) == part; }
  /// Bytes address .. address+bytes-1 lie in blocks of both parts (Partition::spans; never with a mask of 0).
  bool spans(std::uint64_t address, std::uint32_t bytes) const {
    const std::uint64_t last = address + bytes - (bytes != 0 ? 1 : 0);
    return ((address ^ last) & ~(mask - 1)) != 0;
  }
  bool operator()(const Record& r) const { return owns(r.address); }
  /// True if an access at "address" moving "moves" bytes per iteration is never the part's: its
  /// part's bits never change (it moves by multiples of the block above them) and are another's.
  bool neverOwns(std::uint64_t address, std::int64_t moves) const {
    const std::uint64_t below = mask | (mask - 1);  // the part's bits and every bit under them
    return mask != 0 && (static_cast<std::uint64_t>(moves) & below) == 0 && !owns(address);
  }
};

/* True if "mine" takes no access of "span", whose accesses each stay in one line: a column
   walk whose stride is a multiple of twice the parts' block keeps its part all along (covariance's
   columns of 3,200 bytes), and the thread that owns none of them need not walk the span. */
template <typename Mine>
bool noneMine(const LeafSpan& span, Mine mine) {
  if constexpr (std::is_same_v<Mine, PartBits>) {
    return std::all_of(span.accesses, span.accesses + span.count,
                       [&](const LeafAccess& a) { return mine.neverOwns(a.addressAt(span.current), a.stride * span.step); });
  } else {
    return false;
  }
}

/* What a span needs besides the engine: where its accesses change lines, a part's bulk
   iterations per access, and their hits on the MRU engine's newest lines. */
struct SpanScratch {
  SpanLines lines;
  std::vector<std::int64_t> repeats;  // a split simulation's bulk iterations per access
  std::vector<std::uint64_t> newest;  // per access: hits on its set's newest line, for the MRU engine
  std::vector<std::uint64_t> outcomes;  // per access and number of levels missed: its other outcomes, for the MRU engine
  LineClasses classes;                  // the general walk's line classes, on the MRU engine
  std::vector<std::uint64_t> classAddresses;  // per class: its line's address in the iteration
  std::vector<std::uint64_t> byClass;   // per class: iterations simulated by class in which a part took it
  // A part's accesses that spanned both parts in the walk: the access and its part's outcome,
  // in the order both parts met them (settleStraddlers).
  std::vector<std::pair<std::uint32_t, cache::MruOutcome>> straddled;
  std::vector<std::uint32_t> owned;  // the general walk's accesses a part took in its last iteration (bulkAfter)
};

/* True if the MRU engine is "hierarchy" and no access of "span" ever crosses a line. */
template <typename Engine>
bool staysInLines(const LeafSpan& span, const Engine& hierarchy) {
  if constexpr (!std::is_same_v<Engine, cache::MruHierarchy>) {
    return false;
  } else {
    if (span.drawnOffsets) return false;  // a drawn index may move an access anywhere
    return std::all_of(span.accesses, span.accesses + span.count,
                       [&](const LeafAccess& a) { return a.staysInBlocks(span.current, span.step, hierarchy.lineBytes()); });
  }
}

constexpr std::int64_t kMinSpanRun = 1;  // runs found in place this long or longer are counted in bulk (2: atax +10 % instructions)

/* After iteration "t" of "span" ("count": its access count, a constant in walkMru; "missed": the
   iteration's outcomes' missed bits, on the MRU engine): the
   iterations that follow it in the same lines, counted in bulk when the first level still holds
   those lines (docs/performance.md, "Bulk hits"), to "repeats" on one thread or per access a part
   takes to scratch.repeats; 0 if there are none to count. "owned", if given, lists the accesses
   of iteration t the part took (those of every iteration of the run: they stay in their lines),
   so that the others need no look. Shared by walkMru and runSpan's walk. */
template <typename Engine, typename Mine>
[[gnu::always_inline]] inline std::int64_t bulkAfter(const LeafSpan& span, std::size_t count, std::int64_t t, std::uint32_t missed,
                                                    const Engine& hierarchy, Mine mine, SpanScratch& scratch, std::int64_t& repeats,
                                                    const std::vector<std::uint32_t>* owned = nullptr) {
  const std::int64_t same = std::min(scratch.lines.sameAfter(t), span.iterations - 1 - t);
  if (same < kMinSpanRun) return 0;
  const std::int64_t i = span.current + t * span.step;
  if constexpr (!std::is_same_v<Mine, EveryRecord>) {
    if (owned) {
      // The part's sets saw only its own accesses: the last owned->size() accesses there are these.
      bool held = false;
      if constexpr (std::is_same_v<Engine, cache::MruHierarchy>) held = hierarchy.firstLevelKeeps(owned->size(), missed);
      const auto recordAt = [&span, owned, i](std::size_t n) { return span.accesses[(*owned)[n]].at(i); };
      if (!held && !holdsLines(hierarchy, owned->size(), recordAt, EveryRecord{})) return 0;
      for (const std::uint32_t k : *owned) scratch.repeats[k] += same;
      return same;
    }
  }
  const auto recordAt = [&span, i](std::size_t k) { return span.accesses[k].at(i); };
  bool held = false;  // the first level is known to hold the iteration's lines without looking
  if constexpr (std::is_same_v<Engine, cache::MruHierarchy>) held = hierarchy.firstLevelKeeps(count, missed);
  if (!held && !holdsLines(hierarchy, count, recordAt, mine)) return 0;
  if constexpr (std::is_same_v<Mine, EveryRecord>) {
    repeats += same;
  } else {
    for (std::size_t k = 0; k < count; ++k)
      if (mine(recordAt(k))) scratch.repeats[k] += same;
  }
  return same;
}

/* bulkAfter for walkMru on a part, from the accesses' addresses in the iteration after t
   ("next"). The part's sets saw only its own accesses, so the first level keeps the lines of
   the last so many of them. */
template <std::size_t K>
[[gnu::always_inline]] inline std::int64_t partBulkAfter(const LeafSpan& span, std::int64_t t, std::uint32_t missed, const cache::MruHierarchy& hierarchy,
                                                        PartBits mine, SpanScratch& scratch, const std::array<std::uint64_t, K>& next,
                                                        const std::array<std::uint64_t, K>& moves, const std::array<bool, K>& write) {
  const std::int64_t same = std::min(scratch.lines.sameAfter(t), span.iterations - 1 - t);
  if (same < kMinSpanRun) return 0;
  std::uint32_t owned = 0;  // bit k: the part took access k in iteration t (an access in a run stays in its line)
#pragma GCC unroll 12
  for (std::size_t k = 0; k < K; ++k) owned |= mine.owns(next[k] - moves[k]) ? 1u << k : 0u;
  if (!hierarchy.firstLevelKeeps(static_cast<std::size_t>(std::popcount(owned)), missed)) {
#pragma GCC unroll 12
    for (std::size_t k = 0; k < K; ++k)
      if ((owned >> k & 1) != 0 && !hierarchy.firstLevelHolds(next[k] - moves[k], write[k])) return 0;
  }
#pragma GCC unroll 12
  for (std::size_t k = 0; k < K; ++k)
    if ((owned >> k & 1) != 0) scratch.repeats[k] += same;
  return same;
}

/* A part's lines of access "k" of a span, at "address", which spans both parts: simulated now,
   counted after the walk (settleStraddlers). */
[[gnu::noinline]] void straddle(cache::MruHierarchy& hierarchy, const PartBits& mine, SpanScratch& scratch, std::size_t k, std::uint64_t address,
                                std::uint32_t bytes, bool isWrite, cache::MruOutcome& outcome) {
  const Partition& p = *mine.partition;
  hierarchy.accessPart(address, bytes, isWrite, p.bit, p.mask, p.part, outcome);
  scratch.straddled.emplace_back(static_cast<std::uint32_t>(k), outcome);
}

/* The accesses of a span that spanned both parts (scratch.straddled): the second part hands its
   outcomes to the first, which counts each access once with both outcomes combined, to the
   engine and to scratch.outcomes, as runSplitBatch does per record. The accesses it counted;
   nullopt if another thread failed. */
std::optional<std::uint64_t> settleStraddlers(const LeafSpan& span, cache::MruHierarchy& hierarchy, SpanScratch& scratch, std::size_t patterns,
                                              const Partition& partition) {
  std::uint64_t own = 0;
  for (auto& [k, outcome] : scratch.straddled) {
    if (!handOver(partition, outcome)) return std::nullopt;
    if (partition.part != 0) continue;
    hierarchy.countAccess(span.accesses[k].write, outcome);
    ++scratch.outcomes[k * patterns + missedLevels(outcome)];
    ++own;
  }
  if (partition.part != 0) partition.channel->flush();
  scratch.straddled.clear();
  return own;
}

/* runSpan on the MRU engine for a span of "K" accesses (1 to 6, 8 or 10: nearly every leaf of
   the speed corpus; a runtime count in this function gained nothing for conv2d's 51), written as a
   function of its own: the accesses' addresses advance by one add each, and the engine's
   first-level fields are copied in (NewestHits by value), so that both stay in registers. Inside
   runSpan the compiler had spilled them and reloaded them per access (lu at N = 570: 0.67 s to 0.55 s).
   "InLines": no access ever crosses a line; "Runs": after each iteration, the iterations that
   stay in its lines are counted in bulk when the first level still holds them (runSpan). Adds
   each access's hits on its set's newest line to scratch.newest[k] and its other outcomes to
   scratch.outcomes[k * patterns + levels missed], iterations counted in bulk to "repeats" (one
   thread) or scratch.repeats[k] (a part); returns the accesses simulated that "mine" takes.
   Compiled also for x86-64-v3, chosen at load time where the processor has it: shifts by a
   variable count without the count register (BMI2) leave it one more register. */
#if defined(__GNUC__) && !defined(__clang__)
#define CATS_ALSO_FOR_X86_64_V3 gnu::target_clones("default", "arch=x86-64-v3")
#else
#define CATS_ALSO_FOR_X86_64_V3  // Clang 14 clones no template (the fuzz build and clang-tidy)
#endif
template <std::size_t K, typename Mine, bool InLines, bool Runs, bool Vector>
[[gnu::always_inline]] inline std::uint64_t walkMruBody(cache::MruHierarchy& hierarchy, const LeafSpan& span, Mine mine, SpanScratch& scratch,
                                                       std::size_t patterns, cache::MruOutcome& outcome, std::int64_t& repeats) {
  constexpr bool kEvery = std::is_same_v<Mine, EveryRecord>;
  // Vector scans within lines: the accesses that go past their set's newest line leave their
  // levels' demand counts to the end, from their outcomes (four counters fewer per miss).
  constexpr bool kTally = Vector && InLines;
  cache::MruHierarchy::NewestHits near(hierarchy);
  std::array<std::uint64_t, K> address{}, moves{}, hits{};
  std::array<std::uint32_t, K> bytes{};
  std::array<bool, K> write{};
#pragma GCC unroll 12  // written out, as every loop over the accesses here: the arrays then live in registers
  for (std::size_t k = 0; k < K; ++k) {
    address[k] = span.accesses[k].addressAt(span.current);
    moves[k] = static_cast<std::uint64_t>(span.accesses[k].stride * span.step);
    bytes[k] = span.accesses[k].bytes;
    write[k] = span.accesses[k].write;
  }
  std::uint64_t* outcomes = scratch.outcomes.data();
  for (std::int64_t t = 0; t < span.iterations; ++t) {
    std::uint32_t missed = 0;  // the iteration's missed bits
#pragma GCC unroll 12
    for (std::size_t k = 0; k < K; ++k) {
      const std::uint64_t a = address[k];
      address[k] += moves[k];
      if constexpr (!kEvery) {
        if constexpr (!InLines) {
          if (mine.spans(a, bytes[k])) [[unlikely]] {
            straddle(hierarchy, mine, scratch, k, a, bytes[k], write[k], outcome);
            continue;
          }
        }
        if (!mine.owns(a)) continue;  // the part's accesses are counted from hits and outcomes at the end
      }
      if (InLines ? near.template accessInLineUncounted<Vector, !kTally>(a, write[k], outcome)
                  : near.template accessUncounted<Vector>(a, bytes[k], write[k], outcome)) {
        ++hits[k];
        continue;
      }
      if constexpr (Runs) missed |= outcome.missed;
      // Counted per access and number of levels missed (it reached the first level: a span's
      // accesses lie in the part that simulates them), added to its event at the end.
      ++outcomes[k * patterns + missedLevels(outcome)];
    }
    if constexpr (Runs) {
      std::int64_t same = 0;
      if constexpr (kEvery)
        same = bulkAfter(span, K, t, missed, hierarchy, mine, scratch, repeats);
      else
        same = partBulkAfter<K>(span, t, missed, hierarchy, mine, scratch, address, moves, write);
      if (same > 0) {
#pragma GCC unroll 12
        for (std::size_t k = 0; k < K; ++k) address[k] += moves[k] * static_cast<std::uint64_t>(same);
        t += same;
      }
    }
  }
  if constexpr (kTally) {  // runSpan cleared scratch.outcomes for this walk
    for (std::size_t k = 0; k < K; ++k)
      for (std::size_t p = 0; p < patterns; ++p)
        if (outcomes[k * patterns + p] != 0) hierarchy.countDemands(write[k], p, outcomes[k * patterns + p]);
  }
  std::uint64_t own = 0;  // each access the part took is a hit on its newest line or one of the outcomes
#pragma GCC unroll 12
  for (std::size_t k = 0; k < K; ++k) {
    scratch.newest[k] += hits[k];
    if constexpr (!kEvery)
      for (std::size_t p = 0; p < patterns; ++p) own += outcomes[k * patterns + p];
    own += hits[k];
  }
  return kEvery ? static_cast<std::uint64_t>(span.iterations) * K : own;
}

template <std::size_t K, typename Mine, bool InLines, bool Runs>
[[gnu::noinline, CATS_ALSO_FOR_X86_64_V3]] std::uint64_t walkMru(cache::MruHierarchy& hierarchy, const LeafSpan& span, Mine mine,
                                                              SpanScratch& scratch, std::size_t patterns, cache::MruOutcome& outcome,
                                                              std::int64_t& repeats) {
  return walkMruBody<K, Mine, InLines, Runs, false>(hierarchy, span, mine, scratch, patterns, outcome, repeats);
}

#ifdef CATS_VECTOR_ROWS
/* walkMru with the engine's eight-way scans in AVX-512 registers (MruHierarchy::vectorScans()). */
template <std::size_t K, typename Mine, bool InLines, bool Runs>
[[gnu::noinline, gnu::target("arch=x86-64-v4")]] std::uint64_t walkMruVector(cache::MruHierarchy& hierarchy, const LeafSpan& span, Mine mine,
                                                                            SpanScratch& scratch, std::size_t patterns,
                                                                            cache::MruOutcome& outcome, std::int64_t& repeats) {
  return walkMruBody<K, Mine, InLines, Runs, true>(hierarchy, span, mine, scratch, patterns, outcome, repeats);
}
#endif

/* True if some access of "span" moves a line or more per iteration (a column walk): its
   lines' ways in their sets vary, and the scalar scan's exit at them is a misprediction where
   the vector scan has none. Accesses that stay in their lines for iterations hit their set's
   newest lines or the next ones, which the scalar scan finds sooner (jacobi1d is 13 % slower
   with vector scans). */
bool movesLines(const LeafSpan& span, std::uint64_t lineBytes) {
  return std::any_of(span.accesses, span.accesses + span.count, [&](const LeafAccess& a) {
    const std::int64_t move = a.stride * span.step;
    return static_cast<std::uint64_t>(move < 0 ? -move : move) >= lineBytes;
  });
}

/* walkMru for a span of "K" accesses: with vector scans where they pay. */
template <std::size_t K, typename Mine, bool InLines, bool Runs>
std::uint64_t walkMruChosen(cache::MruHierarchy& hierarchy, const LeafSpan& span, Mine mine, SpanScratch& scratch, std::size_t patterns,
                            cache::MruOutcome& outcome, std::int64_t& repeats) {
#ifdef CATS_VECTOR_ROWS
  if (hierarchy.vectorScans() && movesLines(span, hierarchy.lineBytes()))
    return walkMruVector<K, Mine, InLines, Runs>(hierarchy, span, mine, scratch, patterns, outcome, repeats);
#endif
  return walkMru<K, Mine, InLines, Runs>(hierarchy, span, mine, scratch, patterns, outcome, repeats);
}

/* walkMru for a span of "K" accesses, chosen by whether they cross lines and look for runs. */
template <std::size_t K, typename Mine>
std::uint64_t walkMruFixed(cache::MruHierarchy& hierarchy, const LeafSpan& span, Mine mine, SpanScratch& scratch, std::size_t patterns,
                           cache::MruOutcome& outcome, std::int64_t& repeats) {
  const bool runs = span.runLineBytes != 0 && !scratch.lines.never();
  if (staysInLines(span, hierarchy)) {
    if (noneMine(span, mine)) return 0;  // runSpan cleared its outcomes and hits; nothing of this part changes
    return runs ? walkMruChosen<K, Mine, true, true>(hierarchy, span, mine, scratch, patterns, outcome, repeats)
                : walkMruChosen<K, Mine, true, false>(hierarchy, span, mine, scratch, patterns, outcome, repeats);
  }
  return runs ? walkMruChosen<K, Mine, false, true>(hierarchy, span, mine, scratch, patterns, outcome, repeats)
              : walkMruChosen<K, Mine, false, false>(hierarchy, span, mine, scratch, patterns, outcome, repeats);
}

/* A leaf's iterations straight from their accesses (docs/performance.md, "Leaf loops in place"):
   what the records of runLeaf would do, without writing and reading them. After each simulated
   iteration, the iterations that follow it in the same lines are counted in bulk when the first
   level still holds those lines (firstLevelKeeps or firstLevelHolds; docs/performance.md, "Bulk
   hits"). The accesses accounted for (those "mine" takes: a split simulation's part, whose spans
   never cross its blocks); "bulk" grows by those counted in bulk. */
template <typename Engine, typename Outcome, typename Attribute, typename Mine>
std::uint64_t runSpan(const LeafSpan& span, Engine& hierarchy, Outcome& outcome, std::size_t levels, std::vector<LevelCounts>& counts,
                      Attribute attribute, Mine mine, SpanScratch& scratch, std::uint64_t& bulk) {
  constexpr bool kEvery = std::is_same_v<Mine, EveryRecord>;  // one thread: nothing to filter or count per access
  constexpr bool kMru = std::is_same_v<Engine, cache::MruHierarchy>;
  std::uint64_t own = 0;
  std::uint32_t missed = 0;  // the MRU engine's missed bits over the iteration
  // The MRU engine's newest-line hits settled in registers, counted per access and added to
  // their events at the end (scratch.newest[k]).
  auto newest = [&] {  // a default capture: the general engines use none (clang warns of an unused one)
    if constexpr (kMru) return cache::MruHierarchy::NewestHits(hierarchy);
    else return 0;
  }();
  // The MRU engine's other outcomes, per access and number of levels missed (missedLevels).
  const std::size_t patterns = levels + 1;
  if constexpr (kMru) {
    scratch.newest.assign(span.count, 0);
    scratch.outcomes.assign(span.count * patterns, 0);
  }
  const auto accessAt = [&span](std::size_t k) -> const LeafAccess& { return span.accesses[k]; };
  std::int64_t repeats = 0;  // iterations counted in bulk, on one thread
  // The general walk over the span's iterations: any engine, any number of accesses (on the MRU
  // engine, the counts walkMru is not compiled for).
  const auto walk = [&] {
    const std::size_t count = span.count;
    // Line classes (sim/line_classes.hpp), on the MRU engine: an iteration whose lines lie in
    // distinct first-level sets goes to the cache once per line, its other accesses counted at
    // the end as hits on their set's newest line.
    bool classes = false;
    std::uint64_t byClass = 0;  // iterations simulated by class, on one thread
    if constexpr (kMru) {
      classes = count >= 4 && hierarchy.firstSetsIndependent() && scratch.classes.build(span, hierarchy.lineBits(), hierarchy.firstSetMask());
      if (classes) {
        scratch.classAddresses.resize(scratch.classes.size());
        if constexpr (!kEvery) scratch.byClass.assign(scratch.classes.size(), 0);
      }
    }
    const auto simulateByClass = [&](std::int64_t i, const std::uint64_t* drawn) __attribute__((always_inline)) {
      if constexpr (!kMru) {
        return false;
      } else {
        const std::size_t n = scratch.classes.size();
        std::uint64_t* address = scratch.classAddresses.data();
        for (std::size_t c = 0; c < n; ++c) {
          const std::uint32_t k = scratch.classes.leader(c);
          address[c] = span.accesses[k].addressAt(i) + (drawn ? drawn[span.drawnSlots[k]] : 0);
        }
        // Classes sharing a set: their accesses interleave there, all hits after the leaders'
        // (the set holds them all), leaving them in the order of their last accesses. Not in an
        // inclusive hierarchy, where a leader's miss below may evict another class's line.
        const int shared = scratch.classes.sharedSets(address, hierarchy.firstWays());
        if (shared == 2 || (shared == 1 && hierarchy.inclusive())) return false;
        for (std::size_t c = 0; c < n; ++c) {
          const std::uint32_t k = scratch.classes.leader(c);
          const LeafAccess& a = span.accesses[k];
          if constexpr (!kEvery) {
            if (!mine.owns(address[c])) continue;  // its followers share its line: none is the part's
            ++own;
            ++scratch.byClass[c];
          }
          if (newest.accessInLineUncounted(address[c], a.write, outcome)) {
            ++scratch.newest[k];
          } else {
            missed |= outcome.missed;
            ++scratch.outcomes[k * patterns + missedLevels(outcome)];
          }
          // The line is its set's newest now: a later write of the class only makes it dirty.
          if (shared == 0 && scratch.classes.writesAfter(c)) newest.accessInLineUncounted(address[c], true, outcome);
        }
        if (shared == 1)
          for (const std::uint32_t c : scratch.classes.byLastAccess()) {
            if constexpr (!kEvery) {
              if (!mine.owns(address[c])) continue;
            }
            hierarchy.refreshFirst(address[c], scratch.classes.writesAfter(c));
          }
        if constexpr (kEvery) ++byClass;
        return true;
      }
    };
    // "inLines": every access of the span stays within one line in every iteration (no check per access).
    // "drawn": the iteration's row of drawn offsets (LeafSpan::drawnOffsets), or null.
    // A part lists the accesses it takes in each iteration that may start a run, for bulkAfter
    // (by class, an iteration's list would need each class's followers).
    const bool listOwned = !kEvery && !classes && span.runLineBytes != 0 && !scratch.lines.never();
    const auto simulateIteration = [&](std::int64_t i, auto inLines, const std::uint64_t* drawn) __attribute__((always_inline)) {
      if constexpr (kMru) {
        if (classes && simulateByClass(i, drawn)) return;
      }
      for (std::size_t k = 0; k < count; ++k) {
        Record r = span.accesses[k].at(i);
        if (drawn) r.address += drawn[span.drawnSlots[k]];
        if constexpr (!kEvery) {
          if constexpr (kMru) {  // nested: Clang checks the call for every engine under a condition that depends on inLines
            if constexpr (!decltype(inLines)::value) {
              if (mine.spans(r.address, r.bytes)) [[unlikely]] {
                straddle(hierarchy, mine, scratch, k, r.address, r.bytes, r.write, outcome);
                continue;
              }
            }
          }
          if (!mine(r)) continue;
          ++own;
          if (listOwned) scratch.owned.push_back(static_cast<std::uint32_t>(k));
        }
        if constexpr (kMru) {
          if (decltype(inLines)::value ? newest.accessInLineUncounted(r.address, r.write, outcome)
                                       : newest.accessUncounted(r.address, r.bytes, r.write, outcome)) {
            ++scratch.newest[k];
            continue;
          }
          missed |= outcome.missed;
          ++scratch.outcomes[k * patterns + missedLevels(outcome)];  // as in walkMru
          continue;
        } else {
          feed(hierarchy, r, outcome);
        }
        attribute(outcome, levels, r.write, &counts[static_cast<std::size_t>(r.tag) * levels]);
      }
    };
    // Each loop below is compiled with and without the per-access line-crossing test.
    const auto byCrossing = [neverCrosses = staysInLines(span, hierarchy)](auto loop) __attribute__((always_inline)) {
      if (neverCrosses)
        loop(std::true_type{});
      else
        loop(std::false_type{});
    };
    if (span.runLineBytes == 0 || scratch.lines.never()) {
      const std::int64_t end = span.current + span.iterations * span.step;
      byCrossing([&](auto inLines) __attribute__((always_inline)) {
        const std::uint64_t* drawn = span.drawnOffsets;
        for (std::int64_t i = span.current; i != end; i += span.step, drawn = drawn ? drawn + span.drawnWidth : nullptr)
          simulateIteration(i, inLines, drawn);
      });
    } else {
      // Iterations counted in bulk: on one thread every access repeats in each; a part counts
      // each access only while its line is the part's (the same throughout a run).
      byCrossing([&](auto inLines) __attribute__((always_inline)) {
        for (std::int64_t t = 0; t < span.iterations; ++t) {
          const std::int64_t i = span.current + t * span.step;
          missed = 0;
          scratch.owned.clear();
          simulateIteration(i, inLines, nullptr);  // a drawn span has no runs
          t += bulkAfter(span, count, t, missed, hierarchy, mine, scratch, repeats, listOwned ? &scratch.owned : nullptr);
        }
      });
    }
    if (classes)  // the accesses not leading their class: newest-line hits in each iteration simulated by class
      for (const std::uint32_t k : scratch.classes.followers()) {
        const std::uint64_t times = kEvery ? byClass : scratch.byClass[scratch.classes.classOf(k)];
        scratch.newest[k] += times;
        if constexpr (!kEvery) own += times;
      }
  };
  if (span.runLineBytes != 0) {
    scratch.lines.start(span);
    if constexpr (!kEvery) scratch.repeats.assign(span.count, 0);
  }
  if constexpr (kMru) {
    std::uint64_t taken = 0;
    switch (span.drawnOffsets ? 0 : span.count) {  // the counts of the corpus's leaves, written out (walkMru)
      case 1: taken = walkMruFixed<1>(hierarchy, span, mine, scratch, patterns, outcome, repeats); break;
      case 2: taken = walkMruFixed<2>(hierarchy, span, mine, scratch, patterns, outcome, repeats); break;
      case 3: taken = walkMruFixed<3>(hierarchy, span, mine, scratch, patterns, outcome, repeats); break;
      case 4: taken = walkMruFixed<4>(hierarchy, span, mine, scratch, patterns, outcome, repeats); break;
      case 5: taken = walkMruFixed<5>(hierarchy, span, mine, scratch, patterns, outcome, repeats); break;
      case 6: taken = walkMruFixed<6>(hierarchy, span, mine, scratch, patterns, outcome, repeats); break;
      case 8: taken = walkMruFixed<8>(hierarchy, span, mine, scratch, patterns, outcome, repeats); break;
      case 10: taken = walkMruFixed<10>(hierarchy, span, mine, scratch, patterns, outcome, repeats); break;
      default: walk();
    }
    if constexpr (!kEvery) {
      own += taken;
      // Accesses spanning the parts: counted once both parts have walked the span; if another
      // thread failed, run<> stops after this span.
      if (!scratch.straddled.empty()) own += settleStraddlers(span, hierarchy, scratch, patterns, *mine.partition).value_or(0);
    }
  } else {
    walk();
  }
  std::uint64_t counted = 0;
  if (span.runLineBytes != 0) {
    const auto timesOf = [&](std::size_t k) { return kEvery ? repeats : scratch.repeats[k]; };
    counted = addFirstLevelHits(hierarchy, countFirstLevelHits(hierarchy, levels, counts, span.count, accessAt, timesOf));
  }
  if constexpr (kMru) {
    addFirstLevelHits(hierarchy, countFirstLevelHits(hierarchy, levels, counts, span.count, accessAt, [&scratch](std::size_t k) {
                        return scratch.newest[k];
                      }));  // into the engine's counters and the events
    for (std::size_t k = 0; k < span.count; ++k) {
      const LeafAccess& a = span.accesses[k];
      for (std::size_t missed = 0; missed < patterns; ++missed)
        if (const std::uint64_t times = scratch.outcomes[k * patterns + missed]; times != 0)
          attributeMruTimes(missed, levels, a.write, &counts[static_cast<std::size_t>(a.tag) * levels], times);
    }
  }
  bulk += counted;
  return (kEvery ? static_cast<std::uint64_t>(span.iterations) * span.count - counted : own) + counted;
}

/* The stream through "hierarchy", every record's outcome added to its event's counters; a leaf
   the stream hands over as a span is simulated from its accesses instead (runSpan). A run
   the stream offers (docs/performance.md, "Bulk hits") is counted in bulk when the first level
   still holds every line of the iteration before it (written ones dirty). At a repeat point, RepeatWarp may
   skip whole periods of iterations (docs/performance.md, "Warping"). With a partition (the MRU
   engine only), only the records of its part count (docs/performance.md, "Threads"). */
template <typename Engine, typename Outcome, typename Attribute>
std::uint64_t run(AddressStream& stream, Engine& hierarchy, Outcome& outcome, std::size_t levels, std::vector<LevelCounts>& counts,
                  const Progress& progress, Attribute attribute, Skipped& skipped, const Partition* partition = nullptr) {
  std::uint64_t spanning = 0;  // accesses spanning parts so far: no warp over one (partition.hpp), unless the parts warp together
  RepeatWarp<Engine> warp(hierarchy, counts, &spanning, partition);
  std::uint64_t streamed = 0;  // the stream's accesses so far, every part's: the same in each part at each repeat point
  std::vector<Record> batch(kBatch);
  SpanScratch scratch;
  std::uint64_t accesses = 0, nextReport = kProgressEvery;
  const PartBits mine = PartBits::of(partition);
  for (;;) {
    {
      LeafSpan span = stream.leafSpan(kSpanIterations);
      if (span.iterations > 0) {
        // Stretches of the leaf until its end or about a batch.
        std::uint64_t made = 0, looked = 0, bulk = 0;
        do {
          made += partition ? runSpan(span, hierarchy, outcome, levels, counts, attribute, mine, scratch, bulk)
                            : runSpan(span, hierarchy, outcome, levels, counts, attribute, EveryRecord{}, scratch, bulk);
          looked += static_cast<std::uint64_t>(span.iterations) * span.count;
        } while (stream.finishLeafSpan(span, kSpanIterations) && looked < kBatch);
        accesses += made;
        streamed += looked;
        skipped.bulk += bulk;
        if (partition) {
          if (partition->stop->load(std::memory_order_relaxed)) return accesses;  // the other thread failed: its error is reported
          partition->done->store(accesses, std::memory_order_relaxed);
        }
        if (progress && accesses >= nextReport) {
          progress(accesses);
          nextReport = accesses + kProgressEvery;
        }
        continue;
      }
    }
    const std::size_t n = stream.next(batch.data(), batch.size());
    if (stream.ended(n)) break;
    streamed += n;
    bool split = false;
    if constexpr (std::is_same_v<Engine, cache::MruHierarchy>) {
      if (partition) {
        const std::optional<std::uint64_t> own = runSplitBatch(batch, n, hierarchy, outcome, levels, counts, attribute, *partition, spanning);
        if (!own) return accesses;
        accesses += *own;
        split = true;
      }
    }
    if (!split) {
      if constexpr (std::is_same_v<Engine, cache::MruHierarchy>) {
        cache::MruHierarchy::NewestHits newest(hierarchy);  // the first level's fields in registers (as in runSpan)
        for (std::size_t i = 0; i < n; ++i) {
          const Record& r = batch[i];
          LevelCounts* event = &counts[static_cast<std::size_t>(r.tag) * levels];
          if (newest.access(r.address, r.bytes, r.write, outcome))
            ++(r.write ? event->writes : event->reads);
          else
            attribute(outcome, levels, r.write, event);
        }
        newest.flush();
      } else {
        for (std::size_t i = 0; i < n; ++i) {
          const Record& r = batch[i];
          feed(hierarchy, r, outcome);
          attribute(outcome, levels, r.write, &counts[static_cast<std::size_t>(r.tag) * levels]);
        }
      }
      accesses += n;
    }
    if (stream.offeredRun().repeats > 0) {
      const std::uint64_t offered = stream.offeredRun().count * stream.offeredRun().repeats;
      const std::optional<std::uint64_t> bulk = takeRun(stream, batch.data() + n - stream.offeredRun().count, hierarchy, levels, counts, mine);
      if (bulk) {  // declined, the run's iterations come as records
        accesses += *bulk;
        skipped.bulk += *bulk;
        streamed += offered;
      }
    }
    if constexpr (CapturesState<Engine>) {
      if (stream.repeatPoint().remaining > 0) {
        const std::uint64_t warped = warp.at(stream, accesses, streamed);
        accesses += warped;
        skipped.warped += warped;
      }
    }
    if (partition) partition->done->store(accesses, std::memory_order_relaxed);
    if (progress && accesses >= nextReport) {
      progress(accesses);
      nextReport = accesses + kProgressEvery;  // a warp may have jumped far ahead
    }
  }
  return accesses;
}

/* The first-level line size at which the stream may offer runs of same-line iterations (0:
   none): runs pay off only where a write hit stays in the first level (docs/performance.md),
   and not when tracking fillers, whose hits must each be counted by their filler. */
std::uint32_t runLineBytes(const cache::HierarchyConfig& config) {
  if (config.levels.empty() || config.levels[0].write != cache::WritePolicy::WriteBack || config.trackFillers) return 0;
  return config.levels[0].lineBytes;
}

/* The finest line size of "config": accesses in the same lines at this size are in the same
   lines at every level. */
std::uint32_t smallestLine(const cache::HierarchyConfig& config) {
  std::uint32_t line = 0;
  for (const cache::LevelConfig& level : config.levels) line = line == 0 ? level.lineBytes : std::min(line, level.lineBytes);
  return line;
}

/* The same for all of "configs": a run of same-line iterations at the smallest line size is one
   at every larger (aligned, power of two) size too. */
std::uint32_t runLineBytes(const std::vector<cache::HierarchyConfig>& configs) {
  std::uint32_t line = 0;
  for (const cache::HierarchyConfig& config : configs) {
    const std::uint32_t own = runLineBytes(config);
    if (own == 0) return 0;
    line = line == 0 ? own : std::min(line, own);
  }
  return line;
}

/* Level names, per-event counters, totals and the loader's counters of "config" into "result"
   (whose "accesses", the stream's, become the program's); its levels start at "offset" among the
   "stride" counters of each event in "counts". */
void collectCounts(SimulationResult& result, const cache::HierarchyConfig& config, const std::vector<LevelCounts>& counts, std::size_t eventCount,
                   std::size_t stride, std::size_t offset) {
  const std::size_t levels = config.levels.size();
  for (const auto& level : config.levels) result.levels.push_back(level.name);
  result.byEvent.assign(eventCount, std::vector<LevelCounts>(levels));
  result.totals.assign(levels, LevelCounts{});
  for (std::size_t e = 0; e < eventCount; ++e)
    for (std::size_t k = 0; k < levels; ++k) {
      result.byEvent[e][k] = counts[e * stride + offset + k];
      result.totals[k] += counts[e * stride + offset + k];
    }
  result.loader.assign(levels, LevelCounts{});
  for (std::size_t k = 0; k < levels; ++k) result.loader[k] = counts[eventCount * stride + offset + k];
  if (levels > 0) result.accesses -= result.loader.front().accesses();  // the program's accesses, as "totals"
}

/* "options" with repeat points (warping) where the engine's state can be captured, and line runs
   at the smallest line of "config" with them. */
StreamOptions withWarping(StreamOptions options, const cache::HierarchyConfig& config, bool capturesState) {
  options.repeatPoints = options.fastPaths && capturesState;
  options.lineRunBytes = options.repeatPoints ? smallestLine(config) : 0;
  return options;
}

/* "options" with the loader's records tagged right after the trace's events (counted apart). */
StreamOptions withLoaderTag(const StreamOptions& options, std::size_t eventCount) {
  StreamOptions tagged = options;
  tagged.binding.tag = static_cast<std::uint32_t>(eventCount);
  return tagged;
}

/* What the stream bound lazily, and a note for functions whose lookup is not measured. */
void collectBinding(SimulationResult& result, const AddressStream& stream) {
  const LazyBinding* binding = stream.binding();
  if (!binding) return;
  result.boundFunctions = binding->bound();
  if (!binding->unmeasured().empty()) {
    std::string names;
    for (const std::string& f : binding->unmeasured()) names += (names.empty() ? "" : ", ") + f;
    result.notes.push_back("lazy binding of " + names + " is not modelled (no measured lookup): its evictions are missing");
  }
}

/* What the stream read from the integers the program stored (docs/register-model.md, "Values the
   program stored"): exact where found, modelled (and said so) where none was stored. */
void collectStoredValues(SimulationResult& result, const AddressStream& stream, const Program& program) {
  const AddressStream::StoredValueUse& use = stream.storedValueUse();
  std::vector<bool> exactGroup(program.draws.size(), false);
  for (std::size_t g = 0; g < program.draws.size() && g < use.readByGroup.size(); ++g)
    exactGroup[g] = program.draws[g].fromStoredValues && use.readByGroup[g] > 0 && use.drawnByGroup[g] == 0;
  program.forEachOp([&](const Op& op) {
    const auto* a = std::get_if<AccessOp>(&op.value);
    if (a && a->randomOffset && a->draw < exactGroup.size() && exactGroup[a->draw]) result.indexesFromStoredValues.insert(a->tag);
  });
  for (const auto& [scope, counts] : use.boundsByLoop)
    if (counts.first > 0 && counts.second == 0) result.boundsFromStoredValues.insert(scope);
  for (std::size_t g = 0; g < use.drawnByGroup.size() && g < program.draws.size(); ++g)
    if (use.drawnByGroup[g] > 0)
      result.notes.push_back("data-dependent offsets (" + program.draws[g].where + ") found no integer the program stored in " +
                             std::to_string(use.drawnByGroup[g]) + " reads: drawn one element per index and iteration");
  std::string taken;
  for (const auto& [count, what] : {std::pair{use.read, " indexes"}, {use.boundsRead, " loop entries' bounds"}, {use.sizesRead, " allocation sizes"}})
    if (count > 0) taken += (taken.empty() ? "" : ", ") + std::to_string(count) + what;
  if (!taken.empty()) result.notes.push_back("read from the integers the program stored (exact): " + taken);
  if (use.sizesModelled > 0) {
    result.approximate = true;
    result.notes.push_back("allocation sizes that found no stored integer (" + std::to_string(use.sizesModelled) +
                           " allocations) took the container's planned size");
  }
  if (use.drawn > 0) result.approximate = true;
  if (use.boundsModelled > 0) {
    result.approximate = true;
    result.notes.push_back("loop bounds that found no stored integer (" + std::to_string(use.boundsModelled) +
                           " loop entries) ran equal segments or --unknown-trips iterations");
  }
}

/* What one thread of a split simulation (simulateSplit) ends with. */
struct PartResult {
  std::vector<LevelCounts> counts;
  std::uint64_t accesses = 0;
  Skipped skipped;
  std::vector<cache::LevelStats> levelStats;
  bool usedPolicy = false;
  std::exception_ptr error;
};

/* simulate() on two threads, each running the whole stream and simulating the lines of its
   part of the sets (docs/performance.md, "Threads"), into "result" and "counts" as simulate()
   would. */
template <typename Attribute>
void simulateSplit(const Program& program, const cache::HierarchyConfig& config, const StreamOptions& streamOptions, const Progress& progress,
                   unsigned bit, bool together, Attribute attribute, SimulationResult& result, std::vector<LevelCounts>& counts) {
  constexpr unsigned kParts = 2;  // one channel: accesses spanning parts span these two
  const std::size_t levels = config.levels.size();
  std::atomic<bool> stop{false};
  // Each thread stores its count after every leaf: each on a line of its own, so that the two
  // threads' stores do not pass one line back and forth.
  struct alignas(64) Done {
    std::atomic<std::uint64_t> accesses{0};
  };
  std::vector<Done> done(kParts);
  SpanChannel channel;
  WarpRendezvous rendezvous;
  std::vector<PartResult> results(kParts);
  SimulationResult fromStream;  // what the first part's stream read and bound (the same in every part)
  const auto runPart = [&](unsigned part) {
    PartResult& mine = results[part];
    try {
      cache::MruHierarchy hierarchy(config);
      cache::MruOutcome outcome;
      StreamOptions options = withWarping(streamOptions, config, cache::MruHierarchy::capturesState());
      // Leaves in place: where no access can span the parts, or every leaf where the parts warp
      // together (spanning accesses are settled after each span's walk). Else leaves that may
      // have one go as records, through the channel one by one.
      options.leafSpans = true;
      options.spanBlockBytes = together ? 0 : std::uint64_t{1} << bit;
      AddressStream stream(program, options);
      mine.counts.assign(counts.size(), LevelCounts{});
      const Partition partition{bit, kParts - 1u, part, &stop, &done[part].accesses, &channel, together ? &rendezvous : nullptr};
      Progress whole;  // the first part reports every part's accesses
      if (part == 0 && progress)
        whole = [&done, &progress](std::uint64_t /*own*/) {
          std::uint64_t sum = 0;
          for (const Done& d : done) sum += d.accesses.load(std::memory_order_relaxed);
          progress(sum);
        };
      mine.accesses = run(stream, hierarchy, outcome, levels, mine.counts, whole, attribute, mine.skipped, &partition);
      mine.levelStats = hierarchy.stats();
      mine.usedPolicy = stream.usedPolicy();
      if (part == 0) {
        collectBinding(fromStream, stream);
        collectStoredValues(fromStream, stream, program);
      }
    } catch (...) {
      mine.error = std::current_exception();
      stop.store(true);  // the other stops early; the error is rethrown below
    }
    if (part != 0) channel.close();
    if (part == 0) channel.finishReading();
    rendezvous.finish(part);
  };
  {
    std::jthread second(runPart, 1u);
    runPart(0);
  }
  for (const PartResult& part : results)
    if (part.error) std::rethrow_exception(part.error);
  if (channel.left() != 0) throw std::logic_error("the threads of a split simulation met different accesses spanning their parts");
  bool usedPolicy = false;
  result.levelStats.assign(levels, cache::LevelStats{});
  for (const PartResult& part : results) {
    for (std::size_t i = 0; i < counts.size(); ++i) counts[i] += part.counts[i];
    result.accesses += part.accesses;
    result.warpedAccesses += part.skipped.warped;
    result.bulkAccesses += part.skipped.bulk;
    for (std::size_t k = 0; k < levels; ++k) result.levelStats[k] += part.levelStats[k];
    usedPolicy = usedPolicy || part.usedPolicy;
  }
  result.memory = cache::trafficBelow(result.levelStats.back());
  result.approximate = program.approximate || usedPolicy || fromStream.approximate;
  result.boundFunctions = std::move(fromStream.boundFunctions);
  result.notes = std::move(fromStream.notes);
  result.indexesFromStoredValues = std::move(fromStream.indexesFromStoredValues);
  result.boundsFromStoredValues = std::move(fromStream.boundsFromStoredValues);
}

/* How simulate() splits a program over two threads: the lowest bit of the part, and whether
   the parts warp together. */
struct Split {
  unsigned bit = 0;
  bool together = false;
};

/* The split of "program" for "config" on "threads" threads, or nullopt for one thread
   (docs/performance.md, "Threads"). Two threads split the sets where each part is simulated on
   its own exactly (partition.hpp), on the MRU engine; an observer would be told of every scope
   once per thread. A program whose accesses may cross lines splits by the highest part bit, so
   that few of them span the parts, and its parts warp together; but only if each of its loops,
   as the stream runs them, has a written-out walk (walkMru, at most ten accesses). A wider leaf
   is walked access by access, where each part's tests per access cost more than the half of
   the engine work it saves (conv2d's 51 accesses: 0.029 s on one thread, 0.032 s on two). */
std::optional<Split> chooseSplit(const Program& program, const cache::HierarchyConfig& config, const StreamOptions& options, unsigned threads) {
  constexpr std::size_t kWidestWrittenOutWalk = 10;
  if (threads < 2 || options.observer || !cache::MruHierarchy::supports(config)) return std::nullopt;
  // The loops as the stream runs them (small inner loops written out into the loop around
  // them), but only where accesses may cross lines: writing them out copies the program, and
  // the written-out accesses take the addresses the loops took.
  const std::uint32_t line = smallestLine(config);
  LineCrossings crossings = lineCrossings(program, line);
  if (crossings.may && options.fastPaths && hasSmallLoops(program, options.binding.lazy))
    crossings = lineCrossings(flattenSmallLoops(program, options.binding.lazy), line);
  if (!crossings.may) {
    const std::optional<unsigned> bit = partitionBit(config, 2);
    return bit ? std::optional<Split>(Split{*bit, false}) : std::nullopt;
  }
  if (!options.warpTogether || crossings.widestLeaf > kWidestWrittenOutWalk) return std::nullopt;
  const std::optional<unsigned> bit = highPartitionBit(config, 2);
  return bit ? std::optional<Split>(Split{*bit, true}) : std::nullopt;
}

}  // namespace

SimulationResult simulate(const Program& program, std::size_t eventCount, const cache::HierarchyConfig& config,
                          const StreamOptions& options, const Progress& progress, unsigned threads) {
  const std::size_t levels = config.levels.size();
  SimulationResult result;
  std::vector<LevelCounts> counts((eventCount + 1) * levels);  // the loader's accesses after the events'
  StreamOptions streamOptions = withLoaderTag(options, eventCount);
  if (options.fastPaths) streamOptions.runLineBytes = runLineBytes(config);
  if (const std::optional<Split> split = chooseSplit(program, config, options, threads)) {
    simulateSplit(program, config, streamOptions, progress, split->bit, split->together, kAttributeMru, result, counts);
    result.threads = 2;
    collectCounts(result, config, counts, eventCount, levels, 0);
    result.notes.insert(result.notes.begin(), program.notes.begin(), program.notes.end());
    return result;
  }
  const auto simulateWith = [&](auto& hierarchy, auto& outcome, auto attribution) {
    StreamOptions options = withWarping(streamOptions, config, hierarchy.capturesState());
    options.leafSpans = true;  // one thread: run<> takes leaves in place
    AddressStream stream(program, options);
    Skipped skipped;
    result.accesses = run(stream, hierarchy, outcome, levels, counts, progress, attribution, skipped);
    result.warpedAccesses = skipped.warped;
    result.bulkAccesses = skipped.bulk;
    result.levelStats = hierarchy.stats();
    result.memory = hierarchy.memoryTraffic();
    result.approximate = program.approximate || stream.usedPolicy();
    collectBinding(result, stream);
    collectStoredValues(result, stream, program);
  };
  // What the observing options asked for, per level (none when they are off).
  const auto takeObservations = [&](const cache::Hierarchy& hierarchy) {
    for (std::size_t k = 0; k < levels; ++k) {
      if (config.countSetMisses) result.setMisses.push_back(hierarchy.setMisses(k));
      if (config.trackFillers) result.reuse.push_back(hierarchy.reuse(k));
    }
  };
  if (config.trackFillers) {
    TaggedHierarchy hierarchy(config);
    cache::Outcome outcome(cache::OutcomeDetail::DemandOnly);
    simulateWith(hierarchy, outcome, kAttribute);
    takeObservations(hierarchy);
  } else if (cache::MruHierarchy::supports(config)) {
    cache::MruHierarchy hierarchy(config);  // still about 1.6x faster on misses (docs/cache-core.md, Figures; same counts)
    cache::MruOutcome outcome;
    simulateWith(hierarchy, outcome, kAttributeMru);
  } else {
    cache::Hierarchy hierarchy(config);
    cache::Outcome outcome(cache::OutcomeDetail::DemandOnly);  // the counters need no more
    simulateWith(hierarchy, outcome, kAttribute);
    takeObservations(hierarchy);
  }
  collectCounts(result, config, counts, eventCount, levels, 0);
  result.notes.insert(result.notes.begin(), program.notes.begin(), program.notes.end());
  return result;
}

std::vector<SimulationResult> simulateAll(const Program& program, std::size_t eventCount, const std::vector<cache::HierarchyConfig>& configs,
                                          const StreamOptions& options, const Progress& progress, unsigned threads) {
  if (configs.size() == 1) {  // moved in: a braced list would copy the result (a million events' counts in real programs)
    std::vector<SimulationResult> one;
    one.push_back(simulate(program, eventCount, configs[0], options, progress, threads));
    return one;
  }
  for (const cache::HierarchyConfig& config : configs)
    if (config.countSetMisses || config.trackFillers)
      throw std::invalid_argument("per-set misses and line fillers are counted for one cache configuration at a time");
  EngineSet engines(configs);
  const std::size_t stride = engines.levels();
  std::vector<LevelCounts> counts((eventCount + 1) * stride);  // the loader's accesses after the events'
  StreamOptions streamOptions = withLoaderTag(options, eventCount);
  if (options.fastPaths) streamOptions.runLineBytes = runLineBytes(configs);
  streamOptions.leafSpans = true;  // run<> takes leaves in place
  AddressStream stream(program, streamOptions);  // no repeat points: the stack families' counters are completed at the end, not warpable
  Skipped skipped;
  EngineSet::Outcome outcome;
  const std::uint64_t accesses = run(
      stream, engines, outcome, stride, counts, progress,
      [&engines](const EngineSet::Outcome& outcome, std::size_t /*levels*/, bool isWrite, LevelCounts* event) {
        engines.attribute(outcome, isWrite, event);
      },
      skipped);
  engines.completeCounts(counts);
  std::vector<SimulationResult> results(configs.size());
  for (std::size_t c = 0; c < configs.size(); ++c) {
    SimulationResult& result = results[c];
    result.accesses = accesses;
    result.bulkAccesses = skipped.bulk;
    collectCounts(result, configs[c], counts, eventCount, stride, engines.firstLevels()[c]);
    result.levelStats = engines.stats(c);
    result.memory = cache::trafficBelow(result.levelStats.back());
    result.approximate = program.approximate || stream.usedPolicy();
    result.notes = program.notes;
    collectBinding(result, stream);
    collectStoredValues(result, stream, program);
  }
  return results;
}

}  // namespace cats::sim
