// Warping over repeating iterations (docs/performance.md, "Warping"): which loops repeat their
// accesses, and that skipping whole periods of them counts exactly what simulating them does.
#include "sim/concretize.hpp"
#include "sim/simulate.hpp"
#include "random_programs.hpp"
#include "simulation_compare.hpp"
#include "support.hpp"

#include "sim/repeating_loops.hpp"

#include <catch2/catch.hpp>

#include <random>

using namespace cats;
using test::level;
using test::checkSameSimulation;

namespace {

sim::AccessOp access(std::uint32_t tag, std::int64_t constant, std::vector<std::pair<int, std::int64_t>> terms, bool write = false) {
  return test::accessOp(tag, 0, 8, constant, std::move(terms), write);
}

sim::LoopOp loop(int slot, std::int64_t trips, sim::Block body) { return test::countedLoop(slot, trips, std::move(body)); }


sim::Program program(std::size_t containers, std::int64_t bytes) {
  sim::Program p;
  for (std::size_t c = 0; c < containers; ++c) {
    sim::ContainerPlan plan;
    plan.name = "a" + std::to_string(c);
    plan.sizeBytes = bytes;
    p.containers.push_back(plan);
  }
  return p;
}

/* A random inner nest of the time loop (slot 0): a loop at slot 1 of accesses linear in slot 1,
   maybe around a loop at slot 2, maybe with a branch on slot 1. "timeDependent" adds an access
   that names slot 0, so the time loop does not repeat. */
// Ops are built with emplace_back().value: Op{...} temporaries trip a GCC 12 maybe-uninitialized false positive.
sim::LoopOp randomNest(std::mt19937& rng, std::uint32_t& tag, std::uint32_t containers, bool timeDependent) {
  static const std::int64_t strides[] = {0, 4, 8, 8, 16, 24, 64, 72, 136, 256};
  const auto randomAccess = [&](int deepest) {
    sim::AccessOp a = access(tag++, static_cast<std::int64_t>(rng() % 512), {}, rng() % 3 == 0);
    std::vector<std::pair<int, std::int64_t>> terms;
    for (int slot = 1; slot <= deepest; ++slot) terms.emplace_back(slot, strides[rng() % std::size(strides)]);
    a.offset = sim::Formula::linear(a.offset.constantTerm(), terms);
    a.container = rng() % containers;
    return a;
  };
  sim::Block body;
  const std::size_t accesses = 1 + rng() % 3;
  for (std::size_t k = 0; k < accesses; ++k) body.emplace_back().value = randomAccess(1);
  if (rng() % 2 == 0) {
    sim::Block inner;
    for (std::size_t k = 0; k < 1 + rng() % 3; ++k) inner.emplace_back().value = randomAccess(2);
    body.emplace_back().value = loop(2, 2 + static_cast<std::int64_t>(rng() % 12), std::move(inner));
  }
  if (rng() % 3 == 0) {
    sim::Arm arm;
    arm.condition.kind = sim::Condition::Kind::Relation;
    arm.condition.relation = sym::ConditionOp::Less;
    arm.condition.lhs = sim::Formula::linear(0, {{1, 1}});
    arm.condition.rhs = sim::Formula::constant(static_cast<std::int64_t>(rng() % 20));
    arm.body.emplace_back().value = randomAccess(1);
    sim::BranchOp branch;
    branch.arms.push_back(std::move(arm));
    body.emplace_back().value = std::move(branch);
  }
  if (timeDependent) {
    sim::AccessOp a = access(tag++, 0, {{0, 8}, {1, 8}});
    a.container = rng() % containers;
    body.emplace_back().value = a;
  }
  return loop(1, 3 + static_cast<std::int64_t>(rng() % 40), std::move(body));
}

/* A time loop (slot 0, 3 to 60 iterations) around random nests, in a frame; one program in six
   names the time loop's counter. */
sim::Program randomTimeLoop(std::mt19937& rng, std::size_t& events) {
  const std::uint32_t containers = 1 + rng() % 3;
  sim::Program p = program(containers, 1 << 16);
  std::uint32_t tag = 0;
  const bool timeDependent = rng() % 6 == 0;
  sim::Block body;
  const std::size_t nests = 1 + rng() % 2;
  for (std::size_t k = 0; k < nests; ++k) body.emplace_back().value = randomNest(rng, tag, containers, timeDependent && k == 0);
  if (rng() % 3 == 0) body.emplace_back().value = access(tag++, 64, {}, true);
  sim::FrameOp frame;
  frame.body.emplace_back().value = loop(0, 3 + static_cast<std::int64_t>(rng() % 58), std::move(body));
  p.body.emplace_back().value = std::move(frame);
  p.slots = 3;
  events = tag;
  return p;
}

}  // namespace

TEST_CASE("a loop repeats its accesses when nothing in it names its counter or data", "[sim][warp]") {
  sim::Program p = program(2, 4096);
  const sim::LoopOp sweep = loop(0, 10, {sim::Op{loop(1, 10, {sim::Op{access(0, 0, {{1, 8}})}})}});
  CHECK(sim::iterationsRepeat(p, sweep));

  const sim::LoopOp timed = loop(0, 10, {sim::Op{loop(1, 10, {sim::Op{access(0, 0, {{0, 8}, {1, 8}})}})}});
  CHECK_FALSE(sim::iterationsRepeat(p, timed));

  sim::LoopOp inner = loop(1, 10, {sim::Op{access(0, 0, {{1, 8}})}});
  inner.end = sim::Formula::linear(1, {{0, 1}});  // triangular: for (i = 0; i <= t; ++i)
  CHECK_FALSE(sim::iterationsRepeat(p, loop(0, 10, {sim::Op{inner}})));

  sim::AccessOp gather = access(0, 0, {});
  gather.randomOffset = true;
  CHECK_FALSE(sim::iterationsRepeat(p, loop(0, 10, {sim::Op{gather}})));

  sim::Arm fromData;
  fromData.condition.kind = sim::Condition::Kind::FromData;
  fromData.body.push_back(sim::Op{access(0, 0, {})});
  sim::BranchOp branch;
  branch.arms.push_back(fromData);
  CHECK_FALSE(sim::iterationsRepeat(p, loop(0, 10, {sim::Op{branch}})));

  sim::AllocOp heap;
  heap.container = 1;
  heap.sizeBytes = sim::Formula::constant(64);
  heap.function = ir::AllocFunction::Malloc;
  CHECK_FALSE(sim::iterationsRepeat(p, loop(0, 10, {sim::Op{heap}, sim::Op{access(0, 0, {})}})));

  sim::AllocOp stack = heap;
  stack.function = ir::AllocFunction::StackArray;
  sim::FrameOp call;  // an inlined call with a local array: the stack is reset when it returns
  call.body = {sim::Op{stack}, sim::Op{access(0, 0, {})}};
  CHECK(sim::iterationsRepeat(p, loop(0, 10, {sim::Op{call}})));
  CHECK_FALSE(sim::iterationsRepeat(p, loop(0, 10, {sim::Op{stack}, sim::Op{access(0, 0, {})}})));  // not in a frame: the stack grows
}

TEST_CASE("warping: random time loops count exactly as simulating every iteration, in every policy", "[sim][warp]") {
  std::mt19937 rng(2026);
  const auto configs = test::policyConfigurations();
  cache::HierarchyConfig cachegrind;  // the fast engine, big enough that sweeps fit
  cachegrind.levels = {level("D1", 32768, 8, 64), level("LL", 262144, 8, 64)};
  int warped = 0, lruWarps = 0, lruRuns = 0;
  for (int trial = 0; trial < 40; ++trial) {
    std::size_t events = 0;
    sim::Program p = randomTimeLoop(rng, events);
    sim::StreamOptions options;
    options.seed = 5;
    for (std::size_t c = 0; c <= configs.size(); ++c) {
      const cache::HierarchyConfig& config = c < configs.size() ? configs[c] : cachegrind;
      INFO("trial " << trial << ", configuration " << c);
      sim::SimulationResult fast = checkSameSimulation(p, events, config, options);
      warped += fast.warpedAccesses > 0;
      if (config.levels[0].replacement == cache::Replacement::Lru && !config.classifyMisses) {
        ++lruRuns;
        lruWarps += fast.warpedAccesses > 0;
      }
      if (config.classifyMisses || config.levels[0].replacement == cache::Replacement::Random) CHECK(fast.warpedAccesses == 0);
    }
  }
  // The check above can only fail if warps happen: most LRU runs of these loops must warp.
  INFO(warped << " simulations warped; LRU: " << lruWarps << " of " << lruRuns);
  CHECK(lruWarps * 2 > lruRuns);
}

TEST_CASE("warping a stencil's time loop: identical statistics, most accesses never simulated", "[sim][warp][examples]") {
  test::AnalyzeOptions analyze;
  analyze.defines = {{"N", "40"}, {"TSTEPS", "60"}};
  trace::Trace t = test::analyze({"examples/jacobi-2d"}, analyze);
  sim::ConcretizeOptions concretize;
  sim::Program p = sim::concretize(t, concretize);
  cache::HierarchyConfig fits;  // both grids stay in D1 after the first step
  fits.levels = {level("D1", 32768, 8, 64), level("LL", 262144, 8, 64)};
  cache::HierarchyConfig thrashes = fits;  // every step misses in D1: the state repeats all the same
  thrashes.levels = {level("D1", 4096, 4, 64), level("LL", 16384, 8, 64)};
  cache::HierarchyConfig fifoInclusive = thrashes;
  fifoInclusive.inclusion = cache::Inclusion::Inclusive;
  for (auto& level : fifoInclusive.levels) level.replacement = cache::Replacement::Fifo;
  for (const auto& config : {fits, thrashes, fifoInclusive}) {
    INFO("D1 " << config.levels[0].sizeBytes << ", " << cache::toString(config.levels[0].replacement));
    sim::SimulationResult fast = checkSameSimulation(p, t.events.size(), config, sim::StreamOptions{});
    CHECK(fast.warpedAccesses * 10 > fast.accesses * 8);
  }
}
