// Simulation split over threads by cache sets (docs/performance.md, "Threads"): the same
// statistics as one thread, per event and level, on random leaves with accesses spanning the
// parts, time loops that warp, and the examples; which hierarchies split; the outcome channel.
#include "sim/concretize.hpp"
#include "sim/flatten_loops.hpp"
#include "sim/partition.hpp"
#include "sim/simulate.hpp"
#include "random_programs.hpp"
#include "simulation_compare.hpp"
#include "support.hpp"

#include <catch2/catch.hpp>

#include <map>
#include <random>
#include <string>
#include <thread>

using namespace cats;
using test::level;

namespace {

/* One thread against two: everything a report shows is the same. Returns the split run. */
sim::SimulationResult checkSameSplit(const sim::Program& program, std::size_t events, const cache::HierarchyConfig& config,
                                     const sim::StreamOptions& options) {
  const sim::SimulationResult one = sim::simulate(program, events, config, options, {}, 1);
  const sim::SimulationResult two = sim::simulate(program, events, config, options, {}, 2);
  CHECK(one.threads == 1);
  REQUIRE(two.accesses == one.accesses);
  CHECK(two.levelStats == one.levelStats);
  CHECK(two.memory == one.memory);
  CHECK(two.approximate == one.approximate);
  CHECK(two.notes == one.notes);
  CHECK(two.boundFunctions == one.boundFunctions);
  CHECK(two.indexesFromStoredValues == one.indexesFromStoredValues);
  CHECK(two.boundsFromStoredValues == one.boundsFromStoredValues);
  for (std::size_t k = 0; k < one.totals.size(); ++k) {
    CHECK(test::sameCounts(two.totals[k], one.totals[k]));
    CHECK(test::sameCounts(two.loader[k], one.loader[k]));
  }
  bool sameEvents = true;
  for (std::size_t e = 0; e < events; ++e)
    for (std::size_t k = 0; k < one.totals.size(); ++k) sameEvents = sameEvents && test::sameCounts(two.byEvent[e][k], one.byEvent[e][k]);
  CHECK(sameEvents);
  return two;
}

/* How the split simulation treats "program" under "config": by lines where no access crosses
   one; else by blocks, warping together, if every loop as the stream runs it (small loops
   written out) has at most ten accesses; else not at all. */
enum class SplitKind { ByLines, ByBlocks, None };
SplitKind expectedSplit(const sim::Program& program, const cache::HierarchyConfig& config) {
  const sim::Program& streamed = sim::hasSmallLoops(program) ? sim::flattenSmallLoops(program) : program;
  const sim::LineCrossings crossings = sim::lineCrossings(streamed, config.levels.front().lineBytes);
  if (!crossings.may) return SplitKind::ByLines;
  return crossings.widestLeaf <= 10 ? SplitKind::ByBlocks : SplitKind::None;
}

/* The fast engine's hierarchies: LRU, write-back, write-allocate, one line size, in the three
   inclusion modes (two- and four-way, and two eight-way levels), small enough to miss, evict and
   purge; and Cachegrind's geometry. */
std::vector<cache::HierarchyConfig> splittableConfigurations() {
  std::vector<cache::HierarchyConfig> out = test::inEachInclusion({level("D1", 512, 2, 32), level("LL", 4096, 4, 32)});
  for (const cache::HierarchyConfig& c : test::inEachInclusion({level("D1", 512, 8, 32), level("LL", 2048, 8, 32)}))
    out.push_back(c);  // two eight-way levels: the engine's written-out paths
  cache::HierarchyConfig three;
  three.levels = {level("L1", 1024, 2, 64), level("L2", 4096, 4, 64), level("L3", 16384, 8, 64)};
  three.inclusion = cache::Inclusion::Inclusive;
  out.push_back(three);
  cache::HierarchyConfig cachegrind;
  cachegrind.levels = {level("D1", 32768, 8, 64), level("LL", 262144, 8, 64)};
  out.push_back(cachegrind);
  return out;
}

/* for (t < steps) for (i < n / 2) { b[i] = a[i] (16-byte, 4 bytes off alignment: every fourth
   spans two lines) } with "steps" time steps: a loop whose iterations repeat, so it warps, and
   accesses spanning the parts (every sixteenth crosses a 256-byte block). With more than two
   "accesses", the others read a and b a line further on each. */
sim::Program misalignedTimeLoop(std::int64_t n, std::int64_t steps, bool misaligned, std::uint32_t accesses = 2) {
  sim::Program p;
  for (const char* name : {"a", "b"}) {
    sim::ContainerPlan plan;
    plan.name = name;
    plan.sizeBytes = n * 8 + 64 * static_cast<std::int64_t>(accesses) + 64;
    p.containers.push_back(plan);
  }
  const std::int64_t off = misaligned ? 4 : 0;
  sim::Block body;
  // Ops are built with emplace_back().value: Op{...} temporaries trip a GCC 12 maybe-uninitialized false positive.
  body.emplace_back().value = test::accessOp(0, 0, 16, off, {{1, 16}}, false);
  body.emplace_back().value = test::accessOp(1, 1, 16, off, {{1, 16}}, true);
  for (std::uint32_t k = 2; k < accesses; ++k) body.emplace_back().value = test::accessOp(k, k % 2, 16, off + 64 * k, {{1, 16}}, false);
  sim::Block sweep;
  sweep.emplace_back().value = test::countedLoop(1, n / 2, std::move(body));
  sim::LoopOp time = test::countedLoop(0, steps, std::move(sweep));
  sim::FrameOp frame;
  frame.body.emplace_back().value = std::move(time);
  p.body.emplace_back().value = std::move(frame);
  p.slots = 2;
  return p;
}

}  // namespace

TEST_CASE("which hierarchies split their sets between two threads", "[sim][split]") {
  cache::HierarchyConfig cachegrind;
  cachegrind.levels = {level("D1", 32768, 8, 64), level("LL", 262144, 8, 64)};
  CHECK(sim::partitionBit(cachegrind, 2) == 6u);  // the lowest set-index bit, the same at both levels
  CHECK(sim::partitionBit(cachegrind, 1) == std::nullopt);
  CHECK(sim::partitionBit(cachegrind, 3) == std::nullopt);
  cache::HierarchyConfig mixedLines = cachegrind;  // above the largest line offset
  mixedLines.levels[0].lineBytes = 32;
  CHECK(sim::partitionBit(mixedLines, 2) == 6u);
  cache::HierarchyConfig fullyAssociative = cachegrind;  // one set: nothing to split
  fullyAssociative.levels[1].associativity = 0;
  CHECK(sim::partitionBit(fullyAssociative, 2) == std::nullopt);
  cache::HierarchyConfig random = cachegrind;  // one generator for every set
  random.levels[1].replacement = cache::Replacement::Random;
  CHECK(sim::partitionBit(random, 2) == std::nullopt);
  cache::HierarchyConfig classifying = cachegrind;  // shadow caches over every set
  classifying.classifyMisses = true;
  CHECK(sim::partitionBit(classifying, 2) == std::nullopt);
  cache::HierarchyConfig perSet = cachegrind;
  perSet.countSetMisses = true;
  CHECK(sim::partitionBit(perSet, 2) == std::nullopt);
  cache::HierarchyConfig twoSets;  // the part bit must be a set-index bit of every level
  twoSets.levels = {level("D1", 256, 2, 64), level("LL", 1024, 16, 64)};
  CHECK(sim::partitionBit(twoSets, 2) == std::nullopt);
  twoSets.levels[1].associativity = 8;
  CHECK(sim::partitionBit(twoSets, 2) == 6u);
}

TEST_CASE("which programs may have accesses spanning lines (split by large blocks, or on one thread), and in how wide a loop",
          "[sim][split]") {
  CHECK_FALSE(sim::accessesMayCrossLines(misalignedTimeLoop(64, 2, false), 64));  // 16 bytes at 16 i
  CHECK(sim::accessesMayCrossLines(misalignedTimeLoop(64, 2, true), 64));         // 16 bytes at 4 + 16 i
  CHECK(sim::lineCrossings(misalignedTimeLoop(64, 2, true, 7), 64).widestLeaf == 7);
  CHECK(sim::lineCrossings(misalignedTimeLoop(64, 2, false, 7), 64).widestLeaf == 7);  // aligned or not
  CHECK(sim::accessesMayCrossLines(misalignedTimeLoop(64, 2, false), 8));         // bigger than a line
  // A vector loop: 16 bytes at 8 bytes per source step, the loop stepping by two (and from 0).
  sim::Program vector = misalignedTimeLoop(64, 2, false);
  auto& time = std::get<sim::FrameOp>(vector.body[0].value).body[0].asLoop();
  auto& inner = time.body[0].asLoop();
  for (sim::Op& op : inner.body) std::get<sim::AccessOp>(op.value).offset = sim::Formula::linear(0, {{1, 8}});
  inner.step = sim::Formula::constant(2);
  CHECK_FALSE(sim::accessesMayCrossLines(vector, 64));
  inner.start = sim::Formula::constant(1);  // odd source steps: 8 bytes off
  CHECK(sim::accessesMayCrossLines(vector, 64));
  inner.start = sim::Formula::constant(0);
  inner.step = sim::Formula::constant(1);
  CHECK(sim::accessesMayCrossLines(vector, 64));
  inner.step = sim::Formula::constant(2);
  vector.containers[1].alignment = 8;  // a container placed 8 bytes off a 16-byte boundary
  CHECK(sim::accessesMayCrossLines(vector, 64));
  vector.containers[1].alignment = 16;
  vector.containers[1].fixedAddress = 0x10008;  // --place at an address 8 bytes off
  CHECK(sim::accessesMayCrossLines(vector, 64));
  vector.containers[1].fixedAddress = 0x10040;
  CHECK_FALSE(sim::accessesMayCrossLines(vector, 64));
}

TEST_CASE("split simulation: random leaves, accesses spanning the parts included, count as one thread", "[sim][split]") {
  std::mt19937 rng(909);
  const auto configs = splittableConfigurations();
  int byLines = 0, together = 0;
  for (int trial = 0; trial < 60; ++trial) {
    std::size_t events = 0;
    const sim::Program p = test::randomLeafProgram(rng, trial % 2 == 1, events);
    sim::StreamOptions options;
    options.seed = 3;
    for (std::size_t c = 0; c < configs.size(); ++c) {
      INFO("trial " << trial << ", configuration " << c);
      const SplitKind kind = expectedSplit(p, configs[c]);
      CHECK(checkSameSplit(p, events, configs[c], options).threads == (kind == SplitKind::None ? 1u : 2u));
      byLines += kind == SplitKind::ByLines;
      together += kind == SplitKind::ByBlocks;
    }
  }
  INFO(byLines << " split by lines, " << together << " by blocks");
  CHECK(byLines >= 16);  // both splits ran often (24 and 400 of 480 with this seed)
  CHECK(together >= 300);
}

TEST_CASE("split simulation: hierarchies that do not split run on one thread", "[sim][split]") {
  std::mt19937 rng(17);
  std::size_t events = 0;
  const sim::Program p = test::randomLeafProgram(rng, false, events);
  for (const cache::HierarchyConfig& config : test::policyConfigurations()) {
    const bool fastEngine = config.levels[0].replacement == cache::Replacement::Lru && !config.classifyMisses &&
                            config.levels[0].write == cache::WritePolicy::WriteBack &&
                            config.levels[0].allocate == cache::AllocatePolicy::WriteAllocate &&
                            config.levels.front().lineBytes == config.levels.back().lineBytes;
    INFO(cache::toString(config.levels[0].replacement) << ", " << cache::toString(config.inclusion));
    const sim::SimulationResult result = checkSameSplit(p, events, config, sim::StreamOptions{});
    CHECK(result.threads == (fastEngine ? 2u : 1u));
  }
}

TEST_CASE("split simulation: a time loop with accesses spanning the parts warps on both threads together, and counts exactly",
          "[sim][split][warp]") {
  cache::HierarchyConfig small;  // parts of 256-byte blocks where accesses may cross lines
  small.levels = {level("D1", 1024, 2, 64), level("LL", 8192, 4, 64)};
  for (bool misaligned : {false, true})
    for (std::uint32_t accesses : {2u, 7u}) {  // a written-out walk, and the general walk
      INFO((misaligned ? "misaligned, " : "aligned, ") << accesses << " accesses");
      const sim::Program p = misalignedTimeLoop(512, 40, misaligned, accesses);
      CHECK(sim::accessesMayCrossLines(p, 64) == misaligned);
      const sim::SimulationResult one = sim::simulate(p, accesses, small, sim::StreamOptions{}, {}, 1);
      const sim::SimulationResult two = checkSameSplit(p, accesses, small, sim::StreamOptions{});
      CHECK(two.threads == 2);
      CHECK(one.warpedAccesses > one.accesses / 2);  // the loop warps on one thread
      CHECK(two.warpedAccesses > two.accesses / 2);  // and on two, spanning accesses or not
    }
}

TEST_CASE("split simulation: accesses that may cross lines in a loop of more than ten, or without warps together, run on one thread",
          "[sim][split]") {
  cache::HierarchyConfig small;
  small.levels = {level("D1", 1024, 2, 64), level("LL", 8192, 4, 64)};
  CHECK(checkSameSplit(misalignedTimeLoop(512, 3, true, 10), 10, small, sim::StreamOptions{}).threads == 2);
  CHECK(sim::simulate(misalignedTimeLoop(512, 3, true, 11), 11, small, sim::StreamOptions{}, {}, 2).threads == 1);
  CHECK(sim::simulate(misalignedTimeLoop(512, 3, false, 11), 11, small, sim::StreamOptions{}, {}, 2).threads == 2);  // aligned
  sim::StreamOptions apart;
  apart.warpTogether = false;
  CHECK(sim::simulate(misalignedTimeLoop(512, 3, true), 2, small, apart, {}, 2).threads == 1);
  CHECK(sim::simulate(misalignedTimeLoop(512, 3, false), 2, small, apart, {}, 2).threads == 2);
}

TEST_CASE("split simulation on the examples and corpus kernels: the same statistics", "[sim][split][examples]") {
  struct Case {
    const char* path;
    std::map<std::string, std::string> defines;
  };
  const Case cases[] = {
      {"examples/alloc-in-loop", {{"LEN", "300"}, {"ITERS", "4"}}},
      {"examples/jacobi-2d", {{"N", "40"}, {"TSTEPS", "6"}}},
      {"examples/matmul-heap", {{"N", "24"}}},
      {"examples/particles-aos", {{"NP", "2000"}}},
      {"examples/spmv-csr", {{"ROWS", "500"}}},
      {"examples/transpose", {{"N", "64"}}},
      {"bench/fidelity-corpus/lcs.c", {{"N", "30"}}},
      {"bench/fidelity-corpus/kmeans.c", {{"N", "300"}}},
      {"bench/fidelity-corpus/linked_array.c", {{"N", "300"}}},
      {"bench/fidelity-corpus/correlation.c", {{"N", "40"}}},
      {"bench/fidelity-corpus/heat3d.c", {{"N", "20"}}},  // misaligned taps: split by blocks at -O2
      {"bench/fidelity-corpus/jacobi1d.c", {{"N", "3000"}}},
  };
  const auto configs = splittableConfigurations();
  int byBlocks = 0;
  for (const Case& c : cases)
    test::forEachModel(c.path, c.defines, [&](const sim::Program& program, std::size_t events, const sim::StreamOptions& options, const std::string& label) {
      for (std::size_t k = 1; k < configs.size(); ++k) {  // inclusive, exclusive, three levels, Cachegrind's
        INFO(label << ", configuration " << k);
        const SplitKind kind = expectedSplit(program, configs[k]);
        CHECK(checkSameSplit(program, events, configs[k], options).threads == (kind == SplitKind::None ? 1u : 2u));
        byBlocks += kind == SplitKind::ByBlocks;
      }
    });
  CHECK(byBlocks >= 4);
}

TEST_CASE("the span channel passes outcomes in order, waits when full, and stops", "[sim][split]") {
  sim::SpanChannel channel;
  std::atomic<bool> stop{false};
  constexpr std::uint32_t kCount = 300000;  // several times the ring
  bool allPushed = true;  // Catch's assertions are not thread-safe: checked after the join
  std::thread producer([&] {
    for (std::uint32_t i = 0; i < kCount && allPushed; ++i) allPushed = channel.push(cache::MruOutcome{i, i * 3}, stop);
    channel.close();
  });
  bool inOrder = true;
  bool allPopped = true;
  for (std::uint32_t i = 0; i < kCount && allPopped; ++i) {
    cache::MruOutcome o;
    allPopped = channel.pop(o, stop);
    inOrder = inOrder && allPopped && o.accessed == i && o.missed == i * 3;
  }
  producer.join();
  CHECK(allPushed);
  CHECK(allPopped);
  CHECK(inOrder);
  cache::MruOutcome o;
  CHECK_FALSE(channel.pop(o, stop));  // closed and empty: no outcome comes
  CHECK(channel.left() == 0);

  sim::SpanChannel stopped;
  stop = true;
  CHECK_FALSE(stopped.pop(o, stop));  // a failed thread ends the wait
  sim::SpanChannel unread;  // a consumer that finished: a producer left with no room does not wait forever
  unread.finishReading();
  std::atomic<bool> running{false};
  bool pushed = true;
  for (std::uint32_t i = 0; i < kCount && pushed; ++i) pushed = unread.push(cache::MruOutcome{}, running);
  CHECK_FALSE(pushed);
}

TEST_CASE("the warp rendezvous gives both parts the states both matched, look by look, and refuses looks at different points",
          "[sim][split][warp]") {
  sim::WarpRendezvous rendezvous;
  std::atomic<bool> stop{false};
  constexpr std::uint32_t kLooks = 20000;
  std::vector<std::uint32_t> theirs(kLooks);  // Catch's assertions are not thread-safe: checked after the join
  std::thread second([&] {
    for (std::uint32_t n = 0; n < kLooks; ++n) theirs[n] = rendezvous.exchange(1, n | 0x100, n * 7, stop).value_or(0xffffffff);
    rendezvous.finish(1);
  });
  bool both = true;
  for (std::uint32_t n = 0; n < kLooks; ++n) both = both && rendezvous.exchange(0, n | 0x300, n * 7, stop) == (n | 0x100);
  second.join();
  CHECK(both);
  bool same = true;
  for (std::uint32_t n = 0; n < kLooks; ++n) same = same && theirs[n] == (n | 0x100);
  CHECK(same);
  CHECK_FALSE(rendezvous.exchange(0, 1, 0, stop).has_value());  // the other part ended: no answer comes

  sim::WarpRendezvous apart;  // the second part looks at another point of the stream
  bool threw = false;
  std::thread other([&] {
    try {
      (void)apart.exchange(1, 1, 100, stop);
    } catch (const std::logic_error&) {
      threw = true;
    }
    apart.finish(1);
  });
  CHECK_THROWS_AS(apart.exchange(0, 1, 200, stop), std::logic_error);
  other.join();
  CHECK(threw);

  sim::WarpRendezvous waiting;
  stop = true;
  CHECK_FALSE(waiting.exchange(0, 1, 0, stop).has_value());  // a failed thread ends the wait
}
