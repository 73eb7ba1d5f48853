// The stream's leaf fast paths (branchy leaves, bulk first-level hits) against the plain path:
// identical records and identical statistics, per event and in total (docs/performance.md).
#include "sim/concretize.hpp"
#include "sim/flatten_loops.hpp"
#include "sim/simulate.hpp"
#include "sim/stream.hpp"
#include "random_programs.hpp"
#include "simulation_compare.hpp"
#include "support.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <set>
#include <vector>

using namespace cats;
using test::checkSameSimulation;
using test::checkSplitAsPlain;
using test::level;
using test::randomLeafProgram;

namespace {

std::vector<sim::Record> drain(const sim::Program& program, sim::StreamOptions options, std::size_t capacity) {
  sim::AddressStream stream(program, options);
  std::vector<sim::Record> all;
  std::vector<sim::Record> buffer(capacity);
  while (std::size_t n = stream.next(buffer.data(), buffer.size())) all.insert(all.end(), buffer.begin(), buffer.begin() + n);
  return all;
}

/* for (i = 0; i < trips; i++) in slot 0, body to fill. */
sim::LoopOp countingLoop(std::int64_t trips) {
  sim::LoopOp loop;
  loop.slot = 0;
  loop.start = sim::Formula::constant(0);
  loop.end = sim::Formula::constant(trips);
  loop.step = sim::Formula::constant(1);
  return loop;
}

/* One container and a leaf over slot 1 from "start", "trips" iterations, making "accesses",
   swept twice: two, since a loop of three or more that repeats would be warped. The leaf's end
   names slot 2 (always 0), so it is not a constant loop and is not written out. */
sim::Program leafSweptTwice(const sim::ContainerPlan& container, std::int64_t start, std::int64_t trips, const std::vector<sim::AccessOp>& accesses) {
  sim::Program program;
  program.containers.push_back(container);
  sim::LoopOp leaf = countingLoop(trips);
  leaf.slot = 1;
  leaf.start = sim::Formula::constant(start);
  leaf.end = sim::Formula::linear(start + trips, {{2, 1}});
  for (const sim::AccessOp& a : accesses) leaf.body.push_back(sim::Op{a});
  sim::LoopOp outer = countingLoop(2);
  outer.body.push_back(sim::Op{std::move(leaf)});
  program.body.push_back(sim::Op{sim::FrameOp{{sim::Op{std::move(outer)}}, 0}});
  program.slots = 3;
  return program;
}

/* One leaf over slot 0 from "start" by "step" below "trips" (its end names slot 1, always 0,
   so it is not written out), reading "bytes" of global "a" at "stride" bytes per unit. */
sim::Program singleAccessLeaf(std::int64_t arrayBytes, std::int64_t trips, std::int64_t stride, std::uint32_t bytes, std::int64_t start = 0,
                              std::int64_t step = 1) {
  sim::Program program;
  program.containers.push_back(sim::ContainerPlan{"a", ir::ContainerKind::Global, arrayBytes, 64, 0x10000, false});
  sim::LoopOp leaf = countingLoop(trips);
  leaf.start = sim::Formula::constant(start);
  leaf.end = sim::Formula::linear(trips, {{1, 1}});
  leaf.step = sim::Formula::constant(step);
  sim::AccessOp access;
  access.offset = sim::Formula::linear(0, {{0, stride}});
  access.bytes = bytes;
  leaf.body.push_back(sim::Op{access});
  program.body.push_back(sim::Op{sim::FrameOp{{sim::Op{std::move(leaf)}}, 0}});
  program.slots = 2;
  return program;
}

bool sameRecords(const std::vector<sim::Record>& a, const std::vector<sim::Record>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i].address != b[i].address || a[i].bytes != b[i].bytes || a[i].tag != b[i].tag || a[i].write != b[i].write) return false;
  return true;
}

}  // namespace

TEST_CASE("branchy leaf loops: the fast path's records are the plain path's, at any buffer size", "[sim][stream][fastpath]") {
  std::mt19937 rng(12345);
  const sim::BranchPolicy policies[] = {{sim::BranchPolicy::Kind::Both, 0.5},
                                        {sim::BranchPolicy::Kind::Then, 1.0},
                                        {sim::BranchPolicy::Kind::Else, 0.0},
                                        {sim::BranchPolicy::Kind::Probability, 0.3}};
  for (int trial = 0; trial < 60; ++trial) {
    std::size_t events = 0;
    sim::Program program = randomLeafProgram(rng, true, events);
    sim::StreamOptions options;
    options.seed = 1 + static_cast<std::uint64_t>(trial);
    options.branches = policies[trial % 4];
    options.fastPaths = false;
    auto plain = drain(program, options, 4096);
    options.fastPaths = true;
    for (std::size_t capacity : {std::size_t{1}, std::size_t{3}, std::size_t{7}, std::size_t{4096}}) {
      INFO("trial " << trial << ", capacity " << capacity);
      auto fast = drain(program, options, capacity);
      options.fastPaths = false;
      CHECK(sameRecords(drain(program, options, capacity), plain));  // a random offset draws once per access, whatever the buffer
      options.fastPaths = true;
      CHECK(sameRecords(fast, plain));
    }
  }
}

TEST_CASE("a leaf loop walking within lines offers runs of iterations, and taking one skips them", "[sim][stream][fastpath]") {
  const sim::Program program = singleAccessLeaf(8192, 16, 8, 8);
  sim::StreamOptions options;
  options.runLineBytes = 64;
  sim::AddressStream stream(program, options);
  std::vector<sim::Record> buffer(100);
  // Iteration 0 (address 0x10000) is the first in its line and 7 more stay there: the run is
  // offered right after it, with those 7.
  REQUIRE(stream.next(buffer.data(), buffer.size()) == 1);
  CHECK(buffer[0].address == 0x10000);
  CHECK(stream.offeredRun().count == 1);
  CHECK(stream.offeredRun().repeats == 7);
  stream.resolveRun(true);
  REQUIRE(stream.next(buffer.data(), buffer.size()) == 1);
  CHECK(buffer[0].address == 0x10040);  // iteration 8: the next line
  CHECK(stream.offeredRun().repeats == 7);
  stream.resolveRun(false);  // declined: iterations 9 to 15 come one by one, no second offer in that run
  REQUIRE(stream.next(buffer.data(), buffer.size()) == 7);
  CHECK(buffer[0].address == 0x10048);
  CHECK(buffer[6].address == 0x10078);
  CHECK(stream.offeredRun().repeats == 0);
}

TEST_CASE("a run is counted in bulk only if the first level holds its lines, written ones dirty", "[sim][simulate][fastpath]") {
  // Write a[i], then read it: without write-allocate the write misses and the read brings the
  // line in clean, so the next iteration's write sets its dirty bit. Counting those iterations
  // in bulk would lose that bit and the write-back when the sweep over b evicts the line.
  sim::Program program;
  program.containers.push_back(sim::ContainerPlan{"a", ir::ContainerKind::Global, 2048, 64, 0x10000, false});
  program.containers.push_back(sim::ContainerPlan{"b", ir::ContainerKind::Global, 65536, 64, 0x40000, false});
  const auto leafOver = [](int slot, std::int64_t trips, std::uint32_t container, std::int64_t stride, std::vector<std::pair<std::uint32_t, bool>> uses) {
    sim::LoopOp loop;
    loop.slot = slot;
    loop.start = sim::Formula::constant(0);
    loop.end = sim::Formula::linear(trips, {{1, 1}});  // slot 1 is 0: not constant, so not written out
    loop.step = sim::Formula::constant(1);
    for (const auto& [tag, write] : uses) {
      sim::AccessOp access;
      access.container = container;
      access.tag = tag;
      access.write = write;
      access.offset = sim::Formula::linear(0, {{slot, stride}});
      access.bytes = 8;
      loop.body.push_back(sim::Op{access});
    }
    return loop;
  };
  program.body.push_back(sim::Op{sim::FrameOp{{sim::Op{leafOver(0, 256, 0, 8, {{0, true}, {1, false}})},
                                               sim::Op{leafOver(2, 1024, 1, 64, {{2, false}})}},
                                              0}});
  program.slots = 3;
  for (bool allocate : {true, false}) {
    cache::HierarchyConfig config;
    config.levels = {test::level("D1", 1024, 2, 64), test::level("LL", 8192, 4, 64)};
    if (!allocate) config.levels[0].allocate = cache::AllocatePolicy::NoWriteAllocate;
    INFO((allocate ? "write-allocate" : "no write-allocate"));
    const sim::SimulationResult fast = test::checkSameSimulation(program, 3, config, sim::StreamOptions{});
    CHECK(fast.levelStats[0].writebacks == 32);  // every line of a was written and is evicted dirty
  }
}

TEST_CASE("bulk first-level hits: random leaf loops count exactly as the plain path", "[sim][simulate][fastpath]") {
  std::mt19937 rng(777);
  const auto configs = test::policyConfigurations();
  for (int trial = 0; trial < 40; ++trial) {
    std::size_t events = 0;
    sim::Program program = randomLeafProgram(rng, trial % 2 == 1, events);
    sim::StreamOptions options;
    options.seed = 3;
    options.branches = {sim::BranchPolicy::Kind::Probability, 0.5};
    for (std::size_t c = 0; c < configs.size(); ++c) {
      INFO("trial " << trial << ", configuration " << c);
      checkSameSimulation(program, events, configs[c], options);
    }
  }
}

namespace {

/* Makes every branchy leaf of "block" steady: no random offsets, conditions from data only. */
void makeSteady(sim::Block& block) {
  for (sim::Op& op : block) {
    if (auto* a = std::get_if<sim::AccessOp>(&op.value)) a->randomOffset = false;
    if (auto* loop = op.loop()) makeSteady(loop->body);
    if (auto* frame = std::get_if<sim::FrameOp>(&op.value)) makeSteady(frame->body);
    if (auto* branch = std::get_if<sim::BranchOp>(&op.value))
      for (sim::Arm& arm : branch->arms) {
        if (arm.condition.kind == sim::Condition::Kind::Relation) {
          arm.condition = sim::Condition();
          arm.condition.kind = sim::Condition::Kind::FromData;
        }
        makeSteady(arm.body);
      }
  }
}

/* One read of each container before anything else, so that none is first placed inside an arm
   (which keeps a leaf off the fast path). */
void placeFirst(sim::Program& program) {
  auto& frame = std::get<sim::FrameOp>(program.body.front().value);
  for (std::uint32_t c = 0; c < program.containers.size(); ++c) {
    sim::AccessOp read;
    read.container = c;
    read.bytes = 8;
    frame.body.insert(frame.body.begin(), sim::Op{read});
  }
}

/* The runs "program"'s stream offers with 64-byte lines, all taken. */
std::int64_t offeredRepeats(const sim::Program& program, sim::StreamOptions options) {
  options.runLineBytes = 64;
  sim::AddressStream stream(program, options);
  std::vector<sim::Record> buffer(4096);
  std::int64_t repeats = 0;
  while (stream.next(buffer.data(), buffer.size()) != 0) {
    repeats += stream.offeredRun().repeats;
    stream.resolveRun(true);
  }
  return repeats;
}

}  // namespace

TEST_CASE("branchy leaves whose arms do not change with the iteration count same-line runs in bulk, exactly", "[sim][simulate][fastpath]") {
  std::mt19937 rng(4242);
  const auto configs = test::policyConfigurations();
  const sim::BranchPolicy policies[] = {{sim::BranchPolicy::Kind::Both, 0.5}, {sim::BranchPolicy::Kind::Then, 1.0}, {sim::BranchPolicy::Kind::Else, 0.0}};
  int offered = 0;
  for (int trial = 0; trial < 90; ++trial) {
    std::size_t events = 0;
    sim::Program program = randomLeafProgram(rng, true, events);
    makeSteady(program.body);
    placeFirst(program);
    sim::StreamOptions options;
    options.seed = 5;
    options.branches = policies[trial % 3];
    const auto& frame = std::get<sim::FrameOp>(program.body.front().value);
    const auto& leaf = frame.body.back().asLoop().body.front().asLoop();
    const bool branchy = std::any_of(leaf.body.begin(), leaf.body.end(), [](const sim::Op& op) { return std::holds_alternative<sim::BranchOp>(op.value); });
    if (branchy && offeredRepeats(program, options) > 0) ++offered;  // linear leaves offered runs before
    for (std::size_t c = 0; c < configs.size(); ++c) {
      INFO("trial " << trial << ", configuration " << c);
      checkSameSimulation(program, events, configs[c], options);
    }
  }
  CHECK(offered >= 1);  // a branchy leaf took the steady path and offered runs (none could before; the unit test below pins when)
}

TEST_CASE("a branchy leaf is linear only while its arms cannot change: a data draw or its own iterator keeps it branchy", "[sim][stream][fastpath]") {
  // for (i < 64) { if (data) a[i] += ...; else b[i] = ...; }: 8-byte strides, runs of 8 iterations.
  auto program = [](sim::Condition::Kind kind) {
    sim::Program p;
    p.containers.push_back(sim::ContainerPlan{"a", ir::ContainerKind::Global, 8192, 64, 0x10000, false});
    p.containers.push_back(sim::ContainerPlan{"b", ir::ContainerKind::Global, 8192, 64, 0x20000, false});
    sim::LoopOp leaf = countingLoop(64);
    sim::BranchOp branch;
    sim::Arm then, otherwise;
    then.condition.kind = kind;
    if (kind == sim::Condition::Kind::Relation) {
      then.condition.lhs = sim::Formula::linear(0, {{0, 1}});  // i < 32
      then.condition.rhs = sim::Formula::constant(32);
    }
    sim::AccessOp a;
    a.offset = sim::Formula::linear(0, {{0, 8}});
    a.bytes = 8;
    then.body.push_back(sim::Op{a});
    a.container = 1;
    a.write = true;
    a.tag = 1;
    otherwise.condition.kind = sim::Condition::Kind::Always;
    otherwise.body.push_back(sim::Op{a});
    branch.arms = {then, otherwise};
    leaf.body.push_back(sim::Op{std::move(branch)});
    p.body.push_back(sim::Op{sim::FrameOp{{sim::Op{std::move(leaf)}}, 0}});
    p.slots = 1;
    placeFirst(p);
    return p;
  };
  sim::StreamOptions both;
  CHECK(offeredRepeats(program(sim::Condition::Kind::FromData), both) > 0);
  sim::StreamOptions coin;
  coin.branches = {sim::BranchPolicy::Kind::Probability, 0.5};
  CHECK(offeredRepeats(program(sim::Condition::Kind::FromData), coin) == 0);  // a draw per iteration
  CHECK(offeredRepeats(program(sim::Condition::Kind::Relation), both) == 0);  // the arm changes at i = 32
}

TEST_CASE("fast paths on every example and on branchy kernels: identical statistics", "[sim][simulate][fastpath][examples]") {
  struct Case {
    const char* path;
    std::map<std::string, std::string> defines;
  };
  const Case cases[] = {
      {"examples/alloc-in-loop", {{"LEN", "300"}, {"ITERS", "4"}}},
      {"examples/jacobi-2d", {{"N", "40"}, {"TSTEPS", "3"}}},
      {"examples/matmul-heap", {{"N", "24"}}},
      {"examples/matmul-ikj", {{"N", "24"}}},
      {"examples/matmul-stack", {{"N", "24"}}},
      {"examples/matmul-static", {{"N", "24"}}},
      {"examples/multifile/src", {}},
      {"examples/particles-aos", {{"NP", "2000"}}},
      {"examples/spmv-csr", {{"ROWS", "500"}}},
      {"examples/transpose", {{"N", "64"}}},
      {"bench/fidelity-corpus/floyd_warshall.c", {{"N", "30"}}},
      {"bench/fidelity-corpus/nussinov.c", {{"N", "30"}}},
      {"bench/fidelity-corpus/lcs.c", {{"N", "30"}}},
      {"bench/fidelity-corpus/kmeans.c", {{"N", "300"}}},  // small constant loops written out
      {"bench/fidelity-corpus/conv2d.c", {{"N", "40"}}},
  };
  std::vector<cache::HierarchyConfig> configs;
  cache::HierarchyConfig cachegrind;  // the fast engine
  cachegrind.levels = {level("D1", 32768, 8, 64), level("LL", 262144, 8, 64)};
  configs.push_back(cachegrind);
  cache::HierarchyConfig small = cachegrind;  // the general engine, with misses everywhere
  small.levels = {level("D1", 1024, 2, 64), level("LL", 8192, 4, 64)};
  small.inclusion = cache::Inclusion::Inclusive;
  small.classifyMisses = true;
  small.levels[0].replacement = cache::Replacement::TreePlru;
  configs.push_back(small);
  for (const Case& c : cases)
    test::forEachModel(c.path, c.defines, [&](const sim::Program& program, std::size_t events, const sim::StreamOptions& options, const std::string& label) {
      for (const auto& config : configs) {
        INFO(label << ", D1 " << config.levels[0].sizeBytes);
        checkSameSimulation(program, events, config, options);
        sim::StreamOptions both = options;  // simulate's default: every undecided arm, steady leaves
        both.branches = {sim::BranchPolicy::Kind::Both, 0.5};
        checkSameSimulation(program, events, config, both);
      }
    });
}

namespace {

sim::AccessOp accessAt(std::uint32_t tag, std::int64_t constant, const std::vector<std::pair<int, std::int64_t>>& terms, bool write = false) {
  sim::AccessOp a;
  a.tag = tag;
  a.container = 0;
  a.bytes = 8;
  a.write = write;
  a.offset = sim::Formula::linear(constant, terms);
  return a;
}

/* for (i < outer) { pre; for (j from start by step, small) { a[i*64 + j*8], b... } post; } with
   random small bounds, directions, steps and pre/post accesses: what flattenSmallLoops writes out. */
sim::Program smallLoopProgram(std::mt19937& rng, std::size_t& events) {
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  sim::LoopOp inner;
  inner.slot = 1;
  std::int64_t start = pick(0, 6), trips = pick(0, 9), step = pick(1, 3);
  inner.increasing = pick(0, 1) == 1;
  inner.start = sim::Formula::constant(inner.increasing ? start : start + trips * step);
  inner.end = sim::Formula::constant(inner.increasing ? start + trips * step - pick(0, static_cast<int>(step) - 1) : start);
  inner.step = sim::Formula::constant(inner.increasing ? step : -step);
  std::uint32_t tag = 0;
  for (int k = pick(1, 4); k > 0; --k) inner.body.push_back(sim::Op{accessAt(tag++, pick(0, 4096), {{0, pick(0, 3) * 64}, {1, pick(-2, 2) * 8}}, pick(0, 1) == 1)});
  if (pick(0, 1)) inner.pre.push_back(sim::Op{accessAt(tag++, 8192, {{0, 8}})});
  if (pick(0, 1)) inner.post.push_back(sim::Op{accessAt(tag++, 9000, {{0, 8}, {1, 8}}, true)});  // a sunk store at the exit value
  sim::LoopOp outer = countingLoop(pick(65, 120));  // too many iterations to write out
  outer.body.push_back(sim::Op{std::move(inner)});
  outer.body.push_back(sim::Op{accessAt(tag++, 16384, {{0, 8}})});
  sim::Program p;
  p.containers.push_back(sim::ContainerPlan{"a", ir::ContainerKind::Global, 1 << 16, 64, 0x10000, false});
  p.slots = 2;
  sim::AllocOp alloc;
  alloc.container = 0;
  alloc.sizeBytes = sim::Formula::constant(1 << 16);
  alloc.function = ir::AllocFunction::StaticArray;
  p.statics.push_back(sim::Op{alloc});
  sim::FrameOp frame;
  frame.body.push_back(sim::Op{std::move(outer)});
  p.body.push_back(sim::Op{std::move(frame)});
  events = tag;
  return p;
}

}  // namespace

TEST_CASE("small constant loops written out stream the plain path's records, and loops whose slot is read later stay", "[sim][stream][fastpath]") {
  std::mt19937 rng(777);
  for (int trial = 0; trial < 200; ++trial) {
    std::size_t events = 0;
    sim::Program program = smallLoopProgram(rng, events);
    INFO("trial " << trial);
    REQUIRE(sim::hasSmallLoops(program));
    sim::StreamOptions options;
    options.fastPaths = false;
    auto plain = drain(program, options, 4096);
    options.fastPaths = true;
    for (std::size_t capacity : {std::size_t{1}, std::size_t{5}, std::size_t{4096}}) CHECK(sameRecords(drain(program, options, capacity), plain));
    const sim::Program flat = sim::flattenSmallLoops(program);
    const auto& frame = std::get<sim::FrameOp>(flat.body.front().value);
    const auto& outer = frame.body.front().asLoop();
    CHECK(std::none_of(outer.body.begin(), outer.body.end(), [](const sim::Op& op) { return op.loop() != nullptr; }));
  }
  // The stream runs the written-out program: a loop around a two-iteration loop over one line
  // becomes a leaf walking within lines, which offers runs (a loop with an inner loop does not).
  sim::Program walk;
  walk.containers.push_back(sim::ContainerPlan{"a", ir::ContainerKind::Global, 8192, 64, 0x10000, false});
  walk.slots = 2;
  sim::LoopOp pair;
  pair.slot = 1;
  pair.start = sim::Formula::constant(0);
  pair.end = sim::Formula::constant(2);
  pair.step = sim::Formula::constant(1);
  pair.body.push_back(sim::Op{accessAt(0, 0, {{0, 8}})});
  sim::LoopOp around = countingLoop(64);
  around.body.push_back(sim::Op{std::move(pair)});
  walk.body.push_back(sim::Op{sim::FrameOp{{sim::Op{std::move(around)}}, 0}});
  sim::StreamOptions runs;
  CHECK(offeredRepeats(walk, runs) > 0);
  // An access after the loop reads its slot's last value: the loop keeps setting it.
  std::size_t events = 0;
  sim::Program program = smallLoopProgram(rng, events);
  auto& frame = std::get<sim::FrameOp>(program.body.front().value);
  frame.body.front().asLoop().body.push_back(sim::Op{accessAt(99, 0, {{1, 8}})});
  CHECK_FALSE(sim::hasSmallLoops(program));
  // Too many accesses to write out: 65 iterations of one access.
  sim::Program big = smallLoopProgram(rng, events);
  auto& bigOuter = std::get<sim::FrameOp>(big.body.front().value).body.front().asLoop();
  auto& bigInner = bigOuter.body.front().asLoop();
  bigInner.start = sim::Formula::constant(0);
  bigInner.end = sim::Formula::constant(65);
  bigInner.step = sim::Formula::constant(1);
  bigInner.increasing = true;
  bigInner.pre.clear();
  bigInner.post.clear();
  bigInner.body.resize(1);
  CHECK_FALSE(sim::hasSmallLoops(big));
}

namespace {

/* for (i < 70) { for (d < 4) { sums[label[i]][d] += pts[i][d]; } } as kmeans's update loop: the
   sums access draws its element (64 bytes each) through draw group 0, renewed at "refreshSlot"
   (0: the outer loop, 1: the inner one, -1: once); "indexReadsInner": the index is a stored value
   read at the inner counter (label[d]). */
sim::Program drawInSmallLoop(int refreshSlot, bool indexReadsInner) {
  sim::Program p;
  p.containers.push_back(sim::ContainerPlan{"sums", ir::ContainerKind::Global, 512, 64, 0x10000, false});
  p.containers.push_back(sim::ContainerPlan{"pts", ir::ContainerKind::Global, 1 << 14, 64, 0x20000, false});
  p.slots = 2;
  sim::DrawGroup g;
  g.refreshSlot = refreshSlot;
  if (indexReadsInner) {
    g.fromStoredValues = true;
    g.indexFormula = sim::Formula::linear(0, {{1, 1}});
  }
  p.draws.push_back(g);
  sim::LoopOp inner = countingLoop(4);
  inner.slot = 1;
  for (bool write : {false, true}) {
    sim::AccessOp sums;
    sums.tag = write ? 1 : 0;
    sums.offset = sim::Formula::linear(0, {{1, 8}});
    sums.bytes = 8;
    sums.write = write;
    sums.randomOffset = true;
    sums.draw = 0;
    sums.drawStride = 64;
    inner.body.push_back(sim::Op{sums});
    if (!write) inner.body.push_back(sim::Op{[] {
      sim::AccessOp pts = accessAt(2, 0, {{0, 32}, {1, 8}});
      pts.container = 1;
      return pts;
    }()});
  }
  sim::LoopOp outer = countingLoop(70);
  outer.body.push_back(sim::Op{std::move(inner)});
  for (std::uint32_t c : {0u, 1u}) {
    sim::AllocOp alloc;
    alloc.container = c;
    alloc.sizeBytes = sim::Formula::constant(c == 0 ? 512 : 1 << 14);
    alloc.function = ir::AllocFunction::StaticArray;
    p.statics.push_back(sim::Op{alloc});
  }
  p.body.push_back(sim::Op{sim::FrameOp{{sim::Op{std::move(outer)}}, 0}});
  return p;
}

}  // namespace

TEST_CASE("a small loop drawing an element an outer loop renews is written out, with the plain path's records", "[sim][stream][fastpath]") {
  for (int refreshSlot : {0, -1}) {
    INFO("draw renewed at slot " << refreshSlot);
    const sim::Program program = drawInSmallLoop(refreshSlot, false);
    REQUIRE(sim::hasSmallLoops(program));
    const sim::Program flat = sim::flattenSmallLoops(program);
    const auto& outer = std::get<sim::FrameOp>(flat.body.front().value).body.front().asLoop();
    CHECK(outer.body.size() == 12);  // 4 iterations of 3 accesses, no loop left
    sim::StreamOptions options;
    options.fastPaths = false;
    const auto plain = drain(program, options, 4096);
    REQUIRE(plain.size() == std::size_t{70} * 12);
    std::set<std::uint64_t> elements;
    for (const sim::Record& r : plain)
      if (r.tag == 0) elements.insert((r.address - 0x10000) / 64);
    CHECK(elements.size() > (refreshSlot == 0 ? 1u : 0u));  // drawn: one element per i, or one for the run
    options.fastPaths = true;
    for (std::size_t capacity : {std::size_t{1}, std::size_t{5}, std::size_t{4096}}) CHECK(sameRecords(drain(program, options, capacity), plain));
  }
  // Renewed by the loop's own iterations, or drawn by an index read at its counter: the loop stays.
  CHECK_FALSE(sim::hasSmallLoops(drawInSmallLoop(1, false)));
  CHECK_FALSE(sim::hasSmallLoops(drawInSmallLoop(0, true)));
  // After the loop, an index or a stored value read at its counter's last value: the loop stays.
  for (bool byIndex : {true, false}) {
    INFO((byIndex ? "an index" : "a stored value") << " reads the counter after the loop");
    sim::Program program = drawInSmallLoop(0, false);
    auto& outer = std::get<sim::FrameOp>(program.body.front().value).body.front().asLoop();
    sim::AccessOp after = accessAt(9, 0, {{0, 8}}, true);
    if (byIndex) {
      program.draws.push_back(sim::DrawGroup{});
      program.draws.back().fromStoredValues = true;
      program.draws.back().indexFormula = sim::Formula::linear(0, {{1, 1}});
      after.randomOffset = true;
      after.draw = 1;
      after.drawStride = 64;
    } else {
      after.recordsValue = after.hasValue = true;
      after.value = sim::Formula::linear(0, {{1, 1}});
    }
    outer.body.push_back(sim::Op{after});
    CHECK_FALSE(sim::hasSmallLoops(program));
  }
}

namespace {

/* Records of "program" read the way run<> reads them with leaf spans: a leaf's stretches from
   leafSpan/finishLeafSpan (at most "limit" iterations each), the rest from next(); every offer is
   declined and logged as (records before its end, count, repeats). */
struct Drive {
  std::vector<sim::Record> records;
  std::vector<std::array<std::int64_t, 3>> offers;
  std::size_t spans = 0;        // leaves handed over by leafSpan
  std::size_t spansWithRuns = 0;  // of which the caller may count runs in bulk
  std::size_t drawnSpans = 0;     // of which with drawn offsets
};

void logOffer(sim::AddressStream& stream, Drive& drive) {
  if (stream.offeredRun().repeats == 0) return;
  drive.offers.push_back({static_cast<std::int64_t>(drive.records.size()), static_cast<std::int64_t>(stream.offeredRun().count),
                          stream.offeredRun().repeats});
  stream.resolveRun(false);
}

/* randomLeafProgram without branches, its leaf not written out (its end names slot 2, always
   0) and up to 250 iterations long, its accesses mostly once per iteration. */
sim::Program spanningLeafProgram(std::mt19937& rng, std::size_t& events) {
  sim::Program program = randomLeafProgram(rng, false, events);
  auto& frame = std::get<sim::FrameOp>(program.body.front().value);
  auto& outer = frame.body.front().asLoop();
  auto& leaf = outer.body.front().asLoop();
  leaf.end = sim::Formula::linear(20 + static_cast<std::int64_t>(rng() % 230), {{2, 1}});
  for (sim::Op& op : leaf.body) {
    auto& access = std::get<sim::AccessOp>(op.value);
    if (rng() % 4 != 0) access.repeat = 1;
    if (rng() % 2 == 0) access.offset = sim::Formula::linear(4096 + static_cast<std::int64_t>(rng() % 64), {{0, 512}, {1, 8}});
  }
  program.slots = 3;
  return program;
}

/* spanningLeafProgram whose leaf makes exactly "count" accesses, each once per iteration and
   moving less than a line, so that it is handed over as a span of "count" accesses with runs to
   find (runSpan's walks by count); 16-byte ones at 8-byte offsets cross lines. */
sim::Program spanningLeafProgramOf(std::mt19937& rng, std::size_t count, std::size_t& events) {
  sim::Program program = spanningLeafProgram(rng, events);
  auto& frame = std::get<sim::FrameOp>(program.body.front().value);
  auto& outer = frame.body.front().asLoop();
  auto& leaf = outer.body.front().asLoop();
  static const std::int64_t strides[] = {0, 4, 8, 8, -8, 16};
  static const std::uint32_t sizes[] = {4, 8, 8, 16};
  const auto containers = static_cast<std::uint32_t>(program.containers.size());
  leaf.body.clear();
  for (std::uint32_t tag = 0; tag < count; ++tag) {
    const std::uint32_t bytes = sizes[rng() % std::size(sizes)];
    const std::int64_t offset = 4096 + static_cast<std::int64_t>(rng() % 32) * (bytes == 16 ? 8 : bytes);
    leaf.body.push_back(sim::Op{test::accessOp(tag, static_cast<std::uint32_t>(rng() % containers), bytes, offset,
                                               {{0, 512}, {1, strides[rng() % std::size(strides)]}}, rng() % 3 == 0)});
  }
  events = count;
  return program;
}

Drive driveWithSpans(const sim::Program& program, sim::StreamOptions options, std::int64_t limit) {
  options.leafSpans = true;
  sim::AddressStream stream(program, options);
  Drive drive;
  std::vector<sim::Record> buffer(4096);
  std::size_t stretches = 0;
  for (;;) {
    sim::LeafSpan span = stream.leafSpan(limit);
    if (span.iterations > 0) {
      ++drive.spans;
      if (span.runLineBytes != 0) ++drive.spansWithRuns;
      if (span.drawnOffsets) ++drive.drawnSpans;
      do {
        CHECK(span.runLineBytes == (span.runLineBytes == 0 ? 0 : options.runLineBytes));
        CHECK((span.drawnOffsets == nullptr || span.runLineBytes == 0));  // a drawn span has no runs
        for (std::int64_t j = 0; j < span.iterations; ++j)
          for (std::size_t k = 0; k < span.count; ++k) {
            sim::Record r = span.accesses[k].at(span.current + j * span.step);
            r.address += span.drawnOffset(j, k);
            drive.records.push_back(r);
          }
        // Every third stretch is left unfinished, as run<> leaves one after a batch's worth:
        // leafSpan() offers it again, and must not draw it again.
      } while (stream.finishLeafSpan(span, limit) && ++stretches % 3 != 0);
      CHECK(stream.offeredRun().repeats == 0);  // spans are never offered runs: the caller finds them
      continue;
    }
    const std::size_t n = stream.next(buffer.data(), buffer.size());
    if (stream.ended(n)) break;
    drive.records.insert(drive.records.end(), buffer.begin(), buffer.begin() + static_cast<std::ptrdiff_t>(n));
    logOffer(stream, drive);
  }
  return drive;
}

Drive driveWithBatches(const sim::Program& program, const sim::StreamOptions& options) {
  sim::AddressStream stream(program, options);
  Drive drive;
  std::vector<sim::Record> buffer(4096);
  for (;;) {
    const std::size_t n = stream.next(buffer.data(), buffer.size());
    if (stream.ended(n)) break;
    drive.records.insert(drive.records.end(), buffer.begin(), buffer.begin() + static_cast<std::ptrdiff_t>(n));
    logOffer(stream, drive);
  }
  return drive;
}

}  // namespace

TEST_CASE("leaf spans make the records of next(), in stretches of any length", "[sim][stream][fastpath]") {
  std::mt19937 rng(4242);
  std::size_t spans = 0, withRuns = 0, offers = 0;
  for (int trial = 0; trial < 60; ++trial) {
    std::size_t events = 0;
    const sim::Program program = spanningLeafProgram(rng, events);
    sim::StreamOptions options;
    options.runLineBytes = trial % 3 == 0 ? 0 : 64;
    const Drive batches = driveWithBatches(program, options);
    offers += batches.offers.size();
    for (std::int64_t limit : {std::int64_t{1}, std::int64_t{3}, std::int64_t{2048}}) {
      INFO("trial " << trial << ", at most " << limit << " iterations per stretch");
      const Drive withSpans = driveWithSpans(program, options, limit);
      CHECK(sameRecords(withSpans.records, batches.records));
    }
    const Drive whole = driveWithSpans(program, options, 2048);
    spans += whole.spans;
    withRuns += whole.spansWithRuns;
    if (options.runLineBytes == 0) CHECK(whole.spansWithRuns == 0);
  }
  CHECK(offers > 20);    // next() offers runs in these programs,
  CHECK(spans > 60);     // their leaves were handed over as spans,
  CHECK(withRuns > 20);  // and spans carry the line size to find the runs with
}

namespace {

/* spanningLeafProgram, its accesses once per iteration and about half of them drawing their
   element (8, 24 or 64 bytes) from one of four groups: randomLeafProgram's three (renewed per
   leaf iteration, a permutation per leaf entry, renewed per outer iteration) and an index the
   program stored but the stream never knows (counted as drawn). "repeated": one access made
   twice per iteration (no span). */
sim::Program drawnLeafProgram(std::mt19937& rng, bool repeated, std::size_t& events) {
  sim::Program program = spanningLeafProgram(rng, events);
  program.draws.push_back(sim::DrawGroup{1, false, "label[i]", true, sim::Formula::unknown(), {}});
  auto& frame = std::get<sim::FrameOp>(program.body.front().value);
  auto& outer = frame.body.front().asLoop();
  auto& leaf = outer.body.front().asLoop();
  static const std::int64_t drawStrides[] = {8, 24, 64};
  for (sim::Op& op : leaf.body) {
    auto& access = std::get<sim::AccessOp>(op.value);
    access.repeat = 1;
    if (rng() % 2 == 0) continue;
    access.randomOffset = true;
    access.draw = static_cast<std::uint32_t>(rng() % program.draws.size());
    access.drawStride = drawStrides[rng() % std::size(drawStrides)];
  }
  std::get<sim::AccessOp>(leaf.body.front().value).randomOffset = true;  // at least one draws
  std::get<sim::AccessOp>(leaf.body.front().value).drawStride = 64;
  if (repeated) std::get<sim::AccessOp>(leaf.body.back().value).repeat = 2;
  return program;
}

}  // namespace

TEST_CASE("a leaf whose random accesses all draw is handed over as drawn spans: next()'s records and draws, the plain path's counts",
          "[sim][stream][simulate][fastpath]") {
  std::mt19937 rng(5151);
  const auto configs = test::policyConfigurations();
  std::size_t drawn = 0;
  for (int trial = 0; trial < 40; ++trial) {
    std::size_t events = 0;
    const bool repeated = trial % 8 == 7;
    const sim::Program program = drawnLeafProgram(rng, repeated, events);
    sim::StreamOptions options;
    options.runLineBytes = trial % 2 == 0 ? 0 : 64;
    const Drive batches = driveWithBatches(program, options);
    for (std::int64_t limit : {std::int64_t{1}, std::int64_t{7}, std::int64_t{2048}}) {
      INFO("trial " << trial << ", at most " << limit << " iterations per stretch");
      const Drive withSpans = driveWithSpans(program, options, limit);
      CHECK(sameRecords(withSpans.records, batches.records));
      if (repeated) CHECK(withSpans.drawnSpans == 0);  // an access made twice: the branchy path
      drawn += withSpans.drawnSpans;
    }
    for (std::size_t c = 0; c < configs.size(); ++c) {
      INFO("trial " << trial << ", configuration " << c);
      checkSameSimulation(program, events, configs[c], sim::StreamOptions{});
      checkSplitAsPlain(program, events, configs[c]);
    }
  }
  CHECK(drawn > 100);  // the leaves were handed over as drawn spans
}

TEST_CASE("runs of same-line iterations found inside leaf spans count exactly as the plain path, on one thread and two",
          "[sim][simulate][fastpath]") {
  std::mt19937 rng(9090);
  const auto configs = test::policyConfigurations();
  std::uint64_t bulk = 0, bulkSplit = 0;
  for (int trial = 0; trial < 30; ++trial) {
    std::size_t events = 0;
    const sim::Program program = spanningLeafProgram(rng, events);
    for (std::size_t c = 0; c < configs.size(); ++c) {
      INFO("trial " << trial << ", configuration " << c);
      const sim::SimulationResult fast = checkSameSimulation(program, events, configs[c], sim::StreamOptions{});
      bulk += fast.bulkAccesses;
      bulkSplit += checkSplitAsPlain(program, events, configs[c]);
    }
  }
  CHECK(bulk > 10000);  // runs were found and counted in bulk
  CHECK(bulkSplit > 0);
}

TEST_CASE("leaf spans of one to twelve accesses count exactly as the plain path, on one thread and two", "[sim][simulate][fastpath]") {
  // The MRU engine walks spans of 1-6, 8 and 10 accesses in functions compiled for their count
  // (walkMru), others in the general walk: every count, with accesses that cross lines or not,
  // with and without runs, in every configuration.
  std::mt19937 rng(3939);
  const auto configs = test::policyConfigurations();
  std::uint64_t bulkSplit = 0;
  for (std::size_t count = 1; count <= 12; ++count) {
    std::uint64_t bulk = 0;
    for (int trial = 0; trial < 4; ++trial) {
      std::size_t events = 0;
      const sim::Program program = spanningLeafProgramOf(rng, count, events);
      for (std::size_t c = 0; c < configs.size(); ++c) {
        INFO(count << " accesses, trial " << trial << ", configuration " << c);
        bulk += checkSameSimulation(program, events, configs[c], sim::StreamOptions{}).bulkAccesses;
        bulkSplit += checkSplitAsPlain(program, events, configs[c]);
      }
    }
    INFO(count << " accesses");
    CHECK(bulk > 0);  // the spans were walked with runs counted in bulk
  }
  CHECK(bulkSplit > 0);  // on two threads too (those whose accesses cannot cross lines)
}

TEST_CASE("column walks on two threads: a part that owns none of a span's columns skips it, and counts as the plain path",
          "[sim][simulate][fastpath][split]") {
  // for j: { for k: read a[k][3], read a[k][j]; write a[j][5] } (covariance's shape). With rows
  // of 3,200 bytes (a multiple of two 64-byte lines) each column stays in one part, and the part
  // that owns neither column of a span skips it (noneMine); with rows of 3,232 bytes the columns
  // change parts along the walk and every span is walked.
  for (const std::int64_t row : {3200, 3232}) {
    CAPTURE(row);
    constexpr std::int64_t kRows = 64, kColumns = 24;
    sim::Program program;
    program.containers.push_back({"a", ir::ContainerKind::Global, row * kRows, 64, 0x10000, false});
    sim::LoopOp leaf = countingLoop(kRows);
    leaf.slot = 1;
    leaf.end = sim::Formula::linear(kRows, {{2, 1}});  // slot 2 is always 0: not a small constant loop, written out
    leaf.body.push_back(sim::Op{test::accessOp(0, 0, 8, 3 * 8, {{1, row}}, false)});
    leaf.body.push_back(sim::Op{test::accessOp(1, 0, 8, 0, {{0, 8}, {1, row}}, false)});
    sim::LoopOp columns = countingLoop(kColumns);
    columns.body.push_back(sim::Op{std::move(leaf)});
    columns.body.push_back(sim::Op{test::accessOp(2, 0, 8, 5 * 8, {{0, row}}, true)});  // the mirrored store
    program.body.push_back(sim::Op{sim::FrameOp{{sim::Op{std::move(columns)}}, 0}});
    program.slots = 3;
    auto configs = test::policyConfigurations();
    for (const auto& c : test::inEachInclusion({level("D1", 4096, 8, 64), level("LL", 16384, 8, 64)})) configs.push_back(c);
    for (std::size_t c = 0; c < configs.size(); ++c) {
      INFO("configuration " << c);
      checkSplitAsPlain(program, 3, configs[c]);
    }
    const sim::SimulationResult split = sim::simulate(program, 3, configs.back(), sim::StreamOptions{}, {}, 2);
    CHECK(split.threads == 2);
    CHECK(split.accesses == static_cast<std::uint64_t>(kColumns * (2 * kRows + 1)));
  }
}

TEST_CASE("a stride-1 leaf simulated in place counts most of its accesses in bulk, exactly as the plain path", "[sim][simulate][fastpath]") {
  sim::AccessOp a;
  a.offset = sim::Formula::linear(0, {{1, 8}});
  a.bytes = 8;
  const sim::Program program = leafSweptTwice({"a", ir::ContainerKind::Global, 32768, 64, 0x10000, false}, 0, 4096, {a});
  cache::HierarchyConfig config;
  config.levels = {level("D1", 1024, 2, 64), level("LL", 8192, 4, 64)};
  const sim::SimulationResult fast = checkSameSimulation(program, 1, config, sim::StreamOptions{});
  CHECK(fast.accesses == 2 * 4096);
  CHECK(fast.warpedAccesses == 0);
  CHECK(fast.bulkAccesses == 2 * 4096 / 8 * 7);  // seven of every eight reads: the rest of each line after its first
}

TEST_CASE("a stencil leaf whose taps leave their lines in every iteration is simulated without looking for runs, exactly",
          "[sim][simulate][fastpath]") {
  // Taps x[i], x[i+1], ... of 8 bytes: tap d enters a new line where i + d is a multiple of 8.
  // With eight taps one enters in every iteration, so no iteration is followed by one in the same
  // lines (SpanLines::never); with seven, the iteration after each multiple of 8 is, and its
  // accesses are counted in bulk.
  for (const std::int64_t taps : {7, 8}) {
    CAPTURE(taps);
    std::vector<sim::AccessOp> accesses;
    for (std::int64_t d = 0; d < taps; ++d) {
      sim::AccessOp tap;
      tap.offset = sim::Formula::linear(8 * d, {{1, 8}});
      tap.bytes = 8;
      accesses.push_back(tap);
    }
    const sim::Program program = leafSweptTwice({"x", ir::ContainerKind::Global, 16384, 64, 0x10000, false}, 0, 2000, accesses);
    cache::HierarchyConfig config;
    config.levels = {level("D1", 1024, 2, 64), level("LL", 8192, 4, 64)};
    const sim::SimulationResult fast = checkSameSimulation(program, 1, config, sim::StreamOptions{});
    CHECK(fast.accesses == static_cast<std::uint64_t>(2 * 2000 * taps));
    if (taps == 8)
      CHECK(fast.bulkAccesses == 0);
    else
      CHECK(fast.bulkAccesses >= static_cast<std::uint64_t>(2 * (2000 / 8 - 1) * taps));  // one iteration in eight
  }
}

TEST_CASE("a byte stencil's runs come from a table of 64 iterations and count exactly as the plain path", "[sim][simulate][fastpath]") {
  // Taps c[i + 3d] of one byte (a string scan): the accesses' places in their lines repeat every
  // 64 iterations, the longest period SpanLines tabulates. Started at 5 so no tap is aligned.
  std::vector<sim::AccessOp> accesses;
  for (std::int64_t d = 0; d < 3; ++d) {
    sim::AccessOp tap;
    tap.offset = sim::Formula::linear(3 * d, {{1, 1}});
    tap.bytes = 1;
    tap.tag = static_cast<std::uint32_t>(d);
    tap.write = d == 2;
    accesses.push_back(tap);
  }
  const sim::Program program = leafSweptTwice({"c", ir::ContainerKind::Global, 8192, 64, 0x10000, false}, 5, 3000, accesses);
  for (const auto write : {cache::WritePolicy::WriteBack, cache::WritePolicy::WriteThrough}) {
    cache::HierarchyConfig config;
    config.levels = {level("D1", 1024, 2, 64), level("LL", 8192, 4, 64)};
    config.levels[0].write = write;
    const sim::SimulationResult fast = checkSameSimulation(program, 3, config, sim::StreamOptions{});
    CHECK(fast.accesses == 2 * 3000 * 3);
    if (write == cache::WritePolicy::WriteBack) CHECK(fast.bulkAccesses > 2 * 3000 * 3 / 2);  // 61 of every 64 iterations: all but the three where a tap enters a line
  }
}

TEST_CASE("a run found in place is simulated when an inclusive last level's eviction took one of its lines from the first level",
          "[sim][simulate][fastpath]") {
  // a[i] stays in its line for eight iterations and hits in the first level, so the four-way last
  // level's one set never sees it again; b[4i] takes a new line every other iteration, and its
  // fourth line evicts a's (the last level's oldest), which inclusion takes out of the first level
  // too. The iteration after is a miss on a's line: the first level cannot be taken to hold it.
  sim::Program program;
  program.containers.push_back(sim::ContainerPlan{"a", ir::ContainerKind::Global, 4096, 64, 0x10000, false});
  program.containers.push_back(sim::ContainerPlan{"b", ir::ContainerKind::Global, 65536, 64, 0x40000, false});
  sim::LoopOp leaf = countingLoop(256);
  leaf.end = sim::Formula::linear(256, {{1, 1}});  // slot 1 is 0: not constant, so not written out
  for (const auto& [container, stride] : {std::pair<std::uint32_t, std::int64_t>{0, 8}, {1, 32}}) {
    sim::AccessOp access;
    access.container = container;
    access.tag = container;
    access.offset = sim::Formula::linear(0, {{0, stride}});
    access.bytes = 8;
    leaf.body.push_back(sim::Op{access});
  }
  program.body.push_back(sim::Op{sim::FrameOp{{sim::Op{std::move(leaf)}}, 0}});
  program.slots = 2;
  cache::HierarchyConfig config;
  config.levels = {level("D1", 128, 2, 64), level("LL", 256, 4, 64)};
  config.inclusion = cache::Inclusion::Inclusive;
  const sim::SimulationResult fast = checkSameSimulation(program, 2, config, sim::StreamOptions{});
  CHECK(fast.byEvent[0][0].readMisses > 256 / 8);  // a's lines are taken out more often than it enters new ones
  CHECK(fast.bulkAccesses > 0);                     // while the other runs are still counted in bulk
}

TEST_CASE("a split simulation takes a vector leaf as a span when its accesses stay aligned, counting the step", "[sim][stream][split]") {
  // 16-byte accesses at 8 bytes per unit of a counter that moves by 2: 16 bytes per iteration,
  // aligned when the counter starts even. Started at 1, every access straddles 16-byte blocks.
  for (const std::int64_t start : {std::int64_t{0}, std::int64_t{1}}) {
    const sim::Program program = singleAccessLeaf(4096, 256, 8, 16, start, 2);
    sim::StreamOptions options;
    options.leafSpans = true;
    options.spanBlockBytes = 64;
    sim::AddressStream stream(program, options);
    std::vector<sim::Record> buffer(4096);
    std::int64_t spanned = 0;
    std::size_t recorded = 0;
    for (;;) {
      sim::LeafSpan span = stream.leafSpan(4096);
      if (span.iterations > 0) {
        do spanned += span.iterations;
        while (stream.finishLeafSpan(span, 4096));
        continue;
      }
      const std::size_t n = stream.next(buffer.data(), buffer.size());
      if (stream.ended(n)) break;
      recorded += n;
    }
    INFO("start " << start);
    CHECK(spanned == (start == 0 ? 128 : 0));
    CHECK(recorded == (start == 0 ? 0 : 128));
  }
}
