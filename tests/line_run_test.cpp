// Line runs of outer iterations (docs/performance.md): which accesses of a loop move with its
// counter, and that counting the iterations of a line run at once gives exactly what simulating
// them does.
#include "sim/concretize.hpp"
#include "sim/repeating_loops.hpp"
#include "sim/simulate.hpp"
#include "random_programs.hpp"
#include "simulation_compare.hpp"
#include "support.hpp"

#include <catch2/catch.hpp>

#include <random>

using namespace cats;
using test::checkSameSimulation;
using test::level;

namespace {

sim::AccessOp access(std::uint32_t tag, std::int64_t constant, const std::vector<std::pair<int, std::int64_t>>& terms, std::uint32_t bytes = 8) {
  sim::AccessOp a;
  a.tag = tag;
  a.offset = sim::Formula::linear(constant, terms);
  a.bytes = bytes;
  a.scalarBytes = bytes;
  return a;
}

sim::LoopOp loop(int slot, std::int64_t start, std::int64_t trips, std::int64_t step, sim::Block body) {
  sim::LoopOp l;
  l.slot = slot;
  l.start = sim::Formula::constant(start);
  l.end = sim::Formula::constant(start + trips * step);
  l.step = sim::Formula::constant(step);
  l.increasing = step > 0;
  l.body = std::move(body);
  return l;
}

sim::Program program(std::size_t containers) {
  sim::Program p;
  for (std::size_t c = 0; c < containers; ++c) {
    sim::ContainerPlan plan;
    plan.name = "a" + std::to_string(c);
    plan.sizeBytes = 1 << 18;
    p.containers.push_back(plan);
  }
  p.slots = 3;
  return p;
}

/* An outer loop (slot 0) around a middle loop (slot 1, up or down, by one or two) whose inner
   loop (slot 2) walks columns: rows of random widths, the column moving with slot 1 by a few
   bytes per iteration, accesses of 4 to 16 bytes. Some accesses stay put, some move with slot 1
   outside the inner loop; one program in eight has a mirrored store that changes lines every iteration (no line runs), one in five a branch on the
   inner counter. */
sim::Program randomColumnWalk(std::mt19937& rng, std::size_t& events) {
  static const std::int64_t rows[] = {64, 128, 192, 320, 1024, 3200, 64, 520, 8};
  static const std::int64_t columns[] = {4, 8, 8, 16, -8, -4};
  static const std::uint32_t sizes[] = {4, 8, 8, 4, 16};  // 16: a vector of two doubles
  const auto containers = static_cast<std::uint32_t>(1 + rng() % 3);
  sim::Program p = program(containers);
  std::uint32_t tag = 0;
  const auto place = [&](sim::AccessOp a) {
    a.container = rng() % containers;
    a.write = rng() % 3 == 0;
    return sim::Op{a};
  };
  const std::int64_t column = columns[rng() % std::size(columns)];
  const std::int64_t base = 2048 + static_cast<std::int64_t>(rng() % 2 == 0 ? 8 * (rng() % 8) : rng() % 64);  // negative columns stay inside

  sim::Block inner;
  for (std::size_t k = 0, n = 1 + rng() % 3; k < n; ++k) {
    const std::int64_t row = rows[rng() % std::size(rows)];
    const std::uint32_t bytes = sizes[rng() % std::size(sizes)];
    if (rng() % 3 == 0)
      inner.push_back(place(access(tag++, base, {{2, row}}, bytes)));  // the same in every middle iteration
    else
      inner.push_back(place(access(tag++, base, {{0, 8}, {1, column}, {2, row}}, bytes)));
  }
  if (rng() % 5 == 0) {
    sim::Arm arm;
    arm.condition.kind = sim::Condition::Kind::Relation;
    arm.condition.relation = sym::ConditionOp::Less;
    arm.condition.lhs = sim::Formula::linear(0, {{2, 1}});
    arm.condition.rhs = sim::Formula::constant(static_cast<std::int64_t>(rng() % 10));
    arm.body.push_back(place(access(tag++, base, {{1, column}, {2, 64}})));
    sim::BranchOp branch;
    branch.arms.push_back(std::move(arm));
    inner.push_back(sim::Op{std::move(branch)});
  }

  sim::Block middle;
  if (rng() % 2 == 0) middle.push_back(place(access(tag++, base, {{1, column}}, sizes[rng() % std::size(sizes)])));
  // Over 64 accesses: not written out (docs/performance.md, "Small loops written out"), so the middle loop is no leaf.
  middle.push_back(sim::Op{loop(2, 0, 65 + static_cast<std::int64_t>(rng() % 32), 1, std::move(inner))});
  if (rng() % 2 == 0) middle.push_back(place(access(tag++, 64, {{0, 64}})));
  if (rng() % 8 == 0) middle.push_back(place(access(tag++, base, {{1, 1024}})));  // cov[j][i]
  static const std::int64_t steps[] = {1, 1, 1, 2, -1, -2};
  const std::int64_t step = steps[rng() % std::size(steps)];
  sim::LoopOp middleLoop = loop(1, static_cast<std::int64_t>(rng() % 5) + (step < 0 ? 60 : 0), 3 + static_cast<std::int64_t>(rng() % 22), step, std::move(middle));
  p.body.push_back(sim::Op{loop(0, 0, 1 + static_cast<std::int64_t>(rng() % 2), 1, {sim::Op{std::move(middleLoop)}})});
  events = tag;
  return p;
}

}  // namespace

TEST_CASE("the accesses of a loop that move with its counter, and the strides of the loops inside", "[sim][linerun]") {
  const sim::Program p = program(2);
  // for j { for k { B[k][j] (rows of 3200 bytes); A[k] }; C[j] = ...; D[0] }
  const sim::LoopOp walk = loop(1, 0, 10, 1,
                                {sim::Op{loop(2, 0, 10, 1, {sim::Op{access(0, 0, {{1, 8}, {2, 3200}})}, sim::Op{access(1, 0, {{2, 8}})}})},
                                 sim::Op{access(1, 0, {{1, 8}})}, sim::Op{access(1, 0, {})}});
  const auto moving = sim::movingAccesses(p, walk);
  REQUIRE(moving);
  REQUIRE(moving->size() == 2);
  CHECK((*moving)[0].bytesPerStep == 8);
  CHECK((*moving)[0].innerGcd == 3200);
  CHECK((*moving)[1].bytesPerStep == 8);
  CHECK((*moving)[1].innerGcd == 0);  // not in a loop inside: one address per iteration

  const sim::LoopOp still = loop(1, 0, 10, 1, {sim::Op{loop(2, 0, 10, 1, {sim::Op{access(0, 0, {{2, 8}})}})}});
  REQUIRE(sim::movingAccesses(p, still));
  CHECK(sim::movingAccesses(p, still)->empty());  // it repeats: warping's business

  sim::LoopOp triangular = loop(2, 0, 10, 1, {sim::Op{access(0, 0, {{1, 8}, {2, 64}})}});
  triangular.end = sim::Formula::linear(0, {{1, 1}});  // for (k = 0; k < j; ++k): iterations differ
  CHECK_FALSE(sim::movingAccesses(p, loop(1, 0, 10, 1, {sim::Op{triangular}})));

  sim::AccessOp gather = access(0, 0, {{1, 8}});
  gather.randomOffset = true;
  CHECK_FALSE(sim::movingAccesses(p, loop(1, 0, 10, 1, {sim::Op{gather}})));
}

TEST_CASE("line runs: random column walks count exactly as simulating every iteration, in every policy", "[sim][linerun]") {
  std::mt19937 rng(2411);
  const auto configs = test::policyConfigurations();
  cache::HierarchyConfig cachegrind;
  cachegrind.levels = {level("D1", 32768, 8, 64), level("LL", 262144, 8, 64)};
  int lruWarps = 0, lruRuns = 0;
  for (int trial = 0; trial < 60; ++trial) {
    std::size_t events = 0;
    const sim::Program p = randomColumnWalk(rng, events);
    sim::StreamOptions options;
    options.seed = 3;
    for (std::size_t c = 0; c <= configs.size(); ++c) {
      const cache::HierarchyConfig& config = c < configs.size() ? configs[c] : cachegrind;
      INFO("trial " << trial << ", configuration " << c);
      const sim::SimulationResult fast = checkSameSimulation(p, events, config, options);
      if (config.levels[0].replacement == cache::Replacement::Lru && !config.classifyMisses) {
        ++lruRuns;
        lruWarps += fast.warpedAccesses > 0;
      }
    }
  }
  // The comparison can only fail where line runs are counted at once: many LRU runs must have
  // some (45 % with this seed; the others have misaligned columns, rows or a mirrored store).
  INFO("LRU simulations with line runs: " << lruWarps << " of " << lruRuns);
  CHECK(lruWarps * 3 > lruRuns);
}

TEST_CASE("line runs in a transposed matrix-vector product: identical statistics, most accesses counted at once", "[sim][linerun]") {
  const trace::Trace t = test::analyzeSource(R"(
    void mvt(int n, const double *A, double *x, const double *y) {
      for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++)
          x[j] += A[i * n + j] * y[i];
    })");
  sim::ConcretizeOptions concretize;
  concretize.bindings = {{"n", 256}};
  const sim::Program p = sim::concretize(t, concretize);
  cache::HierarchyConfig config;  // a column of A is 256 lines in one D1 set and two LL sets: both thrash
  config.levels = {level("D1", 4096, 4, 64), level("LL", 32768, 8, 64)};
  cache::HierarchyConfig plru = config;
  for (auto& level : plru.levels) level.replacement = cache::Replacement::TreePlru;
  cache::HierarchyConfig inclusiveLru = config;
  inclusiveLru.inclusion = cache::Inclusion::Inclusive;
  cache::HierarchyConfig fifo = config;
  for (auto& level : fifo.levels) level.replacement = cache::Replacement::Fifo;
  for (const auto& c : {config, plru, inclusiveLru, fifo}) {
    INFO(cache::toString(c.levels[0].replacement) << (c.inclusion == cache::Inclusion::Inclusive ? ", inclusive" : ""));
    const sim::SimulationResult fast = checkSameSimulation(p, t.events.size(), c, sim::StreamOptions{});
    INFO(fast.warpedAccesses << " of " << fast.accesses << " accesses counted at once");
    if (c.levels[0].replacement == cache::Replacement::Lru && c.inclusion == cache::Inclusion::NonInclusive)
      CHECK(fast.warpedAccesses * 2 > fast.accesses);
    else if (c.levels[0].replacement != cache::Replacement::TreePlru)  // its state cycles over more iterations
      CHECK(fast.warpedAccesses * 5 > fast.accesses);
  }
}
