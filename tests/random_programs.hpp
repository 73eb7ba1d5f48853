// Random programs and cache levels for differential tests of the simulation (the fast paths
// against the plain path, several configurations in one pass against separate runs).
#pragma once

#include "sim/program.hpp"
#include "cache/config.hpp"

#include <random>

namespace cats::test {

/* A random leaf access: stride (bytes per iteration) often below a line, sometimes above. */
inline sim::AccessOp randomAccess(std::mt19937& rng, std::uint32_t tag, std::uint32_t containers, bool allowRandomOffset) {
  static const std::int64_t strides[] = {0, 1, 2, 4, 8, 8, 8, 16, -8, 24, 64, 72, 256};
  static const std::uint32_t sizes[] = {1, 2, 4, 8, 8, 8, 16, 32};
  sim::AccessOp a;
  a.tag = tag;
  a.container = rng() % containers;
  a.bytes = sizes[rng() % std::size(sizes)];
  a.scalarBytes = a.bytes;
  a.write = rng() % 3 == 0;
  a.repeat = rng() % 6 == 0 ? 2 : 1;
  std::int64_t stride = strides[rng() % std::size(strides)];
  std::int64_t outer = static_cast<std::int64_t>(rng() % 4) * 512;
  std::int64_t offset = 4096 + static_cast<std::int64_t>(rng() % 256);  // negative strides stay inside
  a.offset = sim::Formula::linear(offset, {{0, outer}, {1, stride}});
  a.randomOffset = allowRandomOffset && rng() % 8 == 0;
  if (a.randomOffset) {  // one of the three draw groups randomLeafProgram makes, elements of 8 or 24 bytes
    a.draw = rng() % 3;
    a.drawStride = rng() % 2 == 0 ? 8 : 24;
  }
  return a;
}

/* outer loop (slot 0) around a leaf loop (slot 1) of random accesses, maybe with branches. */
inline sim::Program randomLeafProgram(std::mt19937& rng, bool branches, std::size_t& events) {
  sim::Program program;
  const std::uint32_t containers = 1 + rng() % 3;
  for (std::uint32_t c = 0; c < containers; ++c) {
    sim::ContainerPlan plan;
    plan.name = "a" + std::to_string(c);
    plan.sizeBytes = 65536;
    program.containers.push_back(plan);
  }
  std::uint32_t tag = 0;
  sim::LoopOp leaf;
  leaf.slot = 1;
  leaf.start = sim::Formula::constant(static_cast<std::int64_t>(rng() % 3));
  leaf.end = sim::Formula::constant(20 + static_cast<std::int64_t>(rng() % 60));
  leaf.step = sim::Formula::constant(1 + static_cast<std::int64_t>(rng() % 2));
  const std::size_t count = 1 + rng() % 5;
  for (std::size_t k = 0; k < count; ++k) {
    if (branches && rng() % 3 == 0) {
      sim::BranchOp branch;
      const std::size_t arms = 1 + rng() % 3;
      for (std::size_t m = 0; m < arms; ++m) {
        sim::Arm arm;
        switch (rng() % 3) {
          case 0: arm.condition.kind = sim::Condition::Kind::FromData; break;
          case 1:
            arm.condition.kind = sim::Condition::Kind::Relation;
            arm.condition.lhs = sim::Formula::linear(0, {{1, 1}});
            arm.condition.rhs = sim::Formula::constant(static_cast<std::int64_t>(rng() % 40));
            break;
          default: arm.condition.kind = m + 1 == arms ? sim::Condition::Kind::Always : sim::Condition::Kind::FromData;
        }
        const std::size_t inside = rng() % 3;
        for (std::size_t i = 0; i < inside; ++i) arm.body.push_back(sim::Op{randomAccess(rng, tag++, containers, true)});
        branch.arms.push_back(std::move(arm));
      }
      leaf.body.push_back(sim::Op{std::move(branch)});
      continue;
    }
    leaf.body.push_back(sim::Op{randomAccess(rng, tag++, containers, branches)});
  }
  sim::LoopOp outer;
  outer.slot = 0;
  outer.start = sim::Formula::constant(0);
  outer.end = sim::Formula::constant(1 + static_cast<std::int64_t>(rng() % 4));
  outer.step = sim::Formula::constant(1);
  outer.body.push_back(sim::Op{std::move(leaf)});
  sim::FrameOp frame;
  frame.body.push_back(sim::Op{std::move(outer)});
  program.body.push_back(sim::Op{std::move(frame)});
  program.slots = 2;
  // Draw groups: a gather refreshed per leaf iteration, a chase (a permutation per leaf entry),
  // and one refreshed per outer iteration only.
  program.draws = {sim::DrawGroup{1, false, "i", false, {}, {}}, sim::DrawGroup{1, true, "cur", false, {}, {}}, sim::DrawGroup{0, false, "j", false, {}, {}}};
  events = tag;
  return program;
}

/* An access of "bytes" to "container" at constant + sum of coefficient * slot. */
inline sim::AccessOp accessOp(std::uint32_t tag, std::uint32_t container, std::uint32_t bytes, std::int64_t constant,
                              std::vector<std::pair<int, std::int64_t>> terms, bool write) {
  sim::AccessOp a;
  a.tag = tag;
  a.container = container;
  a.bytes = bytes;
  a.scalarBytes = bytes;
  a.write = write;
  a.offset = sim::Formula::linear(constant, std::move(terms));
  return a;
}

/* for (slot = 0; slot < trips; slot++) body */
inline sim::LoopOp countedLoop(int slot, std::int64_t trips, sim::Block body) {
  sim::LoopOp l;
  l.slot = slot;
  l.start = sim::Formula::constant(0);
  l.end = sim::Formula::constant(trips);
  l.step = sim::Formula::constant(1);
  l.body = std::move(body);
  return l;
}

/* A hierarchy of "levels" in each inclusion mode: non-inclusive, inclusive, exclusive. */
inline std::vector<cache::HierarchyConfig> inEachInclusion(const std::vector<cache::LevelConfig>& levels) {
  std::vector<cache::HierarchyConfig> out;
  for (auto inclusion : {cache::Inclusion::NonInclusive, cache::Inclusion::Inclusive, cache::Inclusion::Exclusive}) {
    cache::HierarchyConfig c;
    c.levels = levels;
    c.inclusion = inclusion;
    out.push_back(c);
  }
  return out;
}

inline cache::LevelConfig level(const char* name, std::uint64_t size, std::uint32_t ways, std::uint32_t line) {
  cache::LevelConfig l;
  l.name = name;
  l.sizeBytes = size;
  l.associativity = ways;
  l.lineBytes = line;
  return l;
}

}  // namespace cats::test
