// Line classes (sim/line_classes.hpp): which accesses of a leaf span share a line in every
// iteration, and the simulation that goes to the cache once per line where the lines lie in
// distinct first-level sets, against the plain path (docs/performance.md, "Line classes").
#include "sim/line_classes.hpp"
#include "sim/simulate.hpp"
#include "random_programs.hpp"
#include "simulation_compare.hpp"

#include <catch2/catch.hpp>

#include <random>
#include <vector>

using namespace cats;
using test::level;

namespace {

sim::LeafAccess leafAccess(std::uint64_t base, std::int64_t stride, std::uint32_t bytes, bool write = false) {
  return sim::LeafAccess{base, stride, bytes, 0, 1, write};
}

}  // namespace

TEST_CASE("line classes: accesses moving alike share a class when at one address or, moving by whole lines, in one line", "[sim][classes]") {
  const std::vector<sim::LeafAccess> accesses = {
      leafAccess(0x1000, 64, 16),        // 0: a row moving by a line per iteration
      leafAccess(0x1030, 64, 16),        // 1: the same row's last 16 bytes
      leafAccess(0x2000, 0, 8),          // 2: a constant
      leafAccess(0x2008, 0, 8, true),    // 3: written, in the constant's line
      leafAccess(0x3000, 4, 4),          // 4: a stream moving by 4 bytes
      leafAccess(0x3000, 4, 4, true),    // 5: the same address: always the same line
      leafAccess(0x3004, 4, 4),          // 6: its neighbour: in its line only some of the time
      leafAccess(0x1040, 64, 16),        // 7: the next row: another line
      leafAccess(0x2010, 0, 16),         // 8: the constant's line again
  };
  sim::LeafSpan span{accesses.data(), accesses.size(), 0, 1, 100, 0};
  sim::LineClasses classes;
  REQUIRE(classes.build(span, 6, 63));
  REQUIRE(classes.size() == 5);
  CHECK(std::vector<std::uint32_t>{classes.leader(0), classes.leader(1), classes.leader(2), classes.leader(3), classes.leader(4)} ==
        std::vector<std::uint32_t>{0, 2, 4, 6, 7});
  CHECK(classes.followers() == std::vector<std::uint32_t>{1, 3, 5, 8});
  CHECK(classes.classOf(8) == 1);
  CHECK_FALSE(classes.writesAfter(0));
  CHECK(classes.writesAfter(1));  // access 3 writes the constant's line
  CHECK(classes.writesAfter(2));

  // Classes by their last access: the stream's at 6, the next row's at 7, the constant's at 8.
  CHECK(classes.byLastAccess() == std::vector<std::uint32_t>{0, 2, 3, 4, 1});

  // Lines in distinct sets, then two classes in one set (64 sets of 64-byte lines: 4 KB apart),
  // then three in one set of a two-way level.
  std::vector<std::uint64_t> lines = {0x1000, 0x2040, 0x3080, 0x30c0, 0x1100};  // sets 0 to 4
  CHECK(classes.sharedSets(lines.data(), 2) == 0);
  CHECK(classes.sharedSets(lines.data(), 2) == 0);  // a check does not see the last one's stamps
  lines[4] = 0x5000;  // the set of 0x1000
  CHECK(classes.sharedSets(lines.data(), 2) == 1);
  lines[3] = 0x7000;
  CHECK(classes.sharedSets(lines.data(), 2) == 2);
  CHECK(classes.sharedSets(lines.data(), 3) == 1);

  SECTION("an access that may cross a line: no classes") {
    std::vector<sim::LeafAccess> crossing = accesses;
    crossing.push_back(leafAccess(0x4008, 64, 16));  // 16 bytes at 8 past a 16-byte boundary
    CHECK_FALSE(classes.build(sim::LeafSpan{crossing.data(), crossing.size(), 0, 1, 100, 0}, 6, 63));
  }
  SECTION("too few accesses share a line to pay: no classes") {
    const std::vector<sim::LeafAccess> apart = {leafAccess(0x1000, 8, 8), leafAccess(0x2000, 8, 8), leafAccess(0x3000, 8, 8),
                                                leafAccess(0x3000, 8, 8)};
    CHECK_FALSE(classes.build(sim::LeafSpan{apart.data(), apart.size(), 0, 1, 100, 0}, 6, 63));
  }
  SECTION("drawn accesses share a class only with those drawing the same offsets, by whole lines or at one address") {
    const std::vector<sim::LeafAccess> drawn = {leafAccess(0x8000, 0, 8), leafAccess(0x8008, 0, 8, true), leafAccess(0x9000, 0, 4),
                                                leafAccess(0x9000, 0, 4, true), leafAccess(0x9004, 0, 4), leafAccess(0x8010, 0, 8)};
    const std::vector<std::uint32_t> slots = {1, 1, 2, 2, 2, 3};     // access 5 draws its own offsets
    const std::vector<std::uint64_t> bits = {0, 0x1c0, 0x1c, 0x1c0};  // per slot: whole lines for slots 1 and 3 only
    const std::vector<std::uint64_t> offsets = {0, 0x40, 0x8, 0x80};  // the first iteration's row
    sim::LeafSpan span2{drawn.data(), drawn.size(), 0, 1, 1, 0, offsets.data(), offsets.size(), slots.data(), bits.data()};
    REQUIRE(classes.build(span2, 6, 63));
    CHECK(classes.size() == 4);  // {0, 1}, {2, 3}, {4}, {5}
    CHECK(classes.followers() == std::vector<std::uint32_t>{1, 3});
  }
}

namespace {

/* kmeans-like leaves: an outer loop (slot 0) around a leaf (slot 1, its end naming slot 2, always
   0: not written out) of 12 to 40 accesses into few lines: rows moving by one or two lines per
   iteration, constant rows, a slow stream, and (with "drawn") rows and counters at a drawn
   element; 8- and 16-byte accesses, some written. */
sim::Program rowsLeafProgram(std::mt19937& rng, bool drawn, std::size_t& events) {
  sim::Program program;
  program.containers.push_back(sim::ContainerPlan{"pts", ir::ContainerKind::Global, 1 << 20, 64, 0x100000, false});
  program.containers.push_back(sim::ContainerPlan{"cent", ir::ContainerKind::Global, 4096, 64, 0x200000 + 16 * (rng() % 4), false});
  program.containers.push_back(sim::ContainerPlan{"sums", ir::ContainerKind::Global, 4096, 64, 0x300000, false});
  program.draws.push_back(sim::DrawGroup{1, false, "label[i]", false, {}, {}});
  const std::int64_t rowStride = 64 * (1 + static_cast<std::int64_t>(rng() % 2));
  sim::LoopOp leaf = test::countedLoop(1, 50 + static_cast<std::int64_t>(rng() % 300), {});
  leaf.end = sim::Formula::linear(leaf.end.constantValue().value(), {{2, 1}});
  const std::size_t count = 12 + rng() % 29;
  for (std::uint32_t tag = 0; tag < count; ++tag) {
    const std::uint32_t bytes = rng() % 2 == 0 ? 8 : 16;
    const std::int64_t within = static_cast<std::int64_t>(rng() % (64 / bytes)) * bytes;
    const bool write = rng() % 5 == 0;
    sim::AccessOp a;
    switch (rng() % (drawn ? 5 : 3)) {
      case 0: a = test::accessOp(tag, 0, bytes, 64 * static_cast<std::int64_t>(rng() % 2) + within, {{0, 8192}, {1, rowStride}}, write); break;
      case 1: a = test::accessOp(tag, 1, bytes, 64 * static_cast<std::int64_t>(rng() % 8) + within, {{0, 0}}, write); break;
      case 2: a = test::accessOp(tag, 2, 4, 2048 + 4 * static_cast<std::int64_t>(rng() % 2), {{1, 4}}, write); break;
      default:
        a = test::accessOp(tag, 2, bytes, within, {{0, 0}}, write);
        a.randomOffset = true;
        a.draw = 0;
        a.drawStride = rng() % 3 == 0 ? 16 : 64;  // counters: 16-byte elements, a class only at one address
        if (a.drawStride == 16) a.offset = sim::Formula::constant(0);
    }
    leaf.body.push_back(sim::Op{a});
  }
  sim::LoopOp outer = test::countedLoop(0, 1 + static_cast<std::int64_t>(rng() % 3), {sim::Op{std::move(leaf)}});
  program.body.push_back(sim::Op{sim::FrameOp{{sim::Op{std::move(outer)}}, 0}});
  program.slots = 3;
  events = count;
  return program;
}

/* The fast engine's hierarchies with enough first-level sets for lines to lie apart, in each
   inclusion mode, and an inclusive one whose last level has fewer sets than the first (a miss
   there may take a line of another first-level set: no classes). */
std::vector<cache::HierarchyConfig> classConfigurations() {
  std::vector<cache::HierarchyConfig> out = test::inEachInclusion({level("D1", 4096, 8, 64), level("LL", 32768, 8, 64)});
  for (const cache::HierarchyConfig& c : test::inEachInclusion({level("D1", 2048, 2, 64), level("L2", 8192, 4, 64), level("LL", 32768, 4, 64)}))
    out.push_back(c);
  cache::HierarchyConfig fewer;
  fewer.levels = {level("D1", 4096, 2, 64), level("LL", 8192, 16, 64)};  // 32 sets, then 8
  fewer.inclusion = cache::Inclusion::Inclusive;
  out.push_back(fewer);
  cache::HierarchyConfig one;
  one.levels = {level("D1", 2048, 4, 64)};
  out.push_back(one);
  return out;
}

}  // namespace

TEST_CASE("leaves of accesses sharing lines, simulated by line class: the plain path's counts on one thread and two", "[sim][simulate][classes]") {
  std::mt19937 rng(6464);
  const auto configs = classConfigurations();
  for (int trial = 0; trial < 40; ++trial) {
    std::size_t events = 0;
    const sim::Program program = rowsLeafProgram(rng, trial % 2 == 1, events);
    for (std::size_t c = 0; c < configs.size(); ++c) {
      INFO("trial " << trial << ", configuration " << c);
      test::checkSameSimulation(program, events, configs[c], sim::StreamOptions{});
      test::checkSplitAsPlain(program, events, configs[c]);
    }
  }
}
