// Per-set misses and line fillers (HierarchyConfig's countSetMisses and trackFillers): the per-set
// counts against a count made independently from each access's outcome and address, and the
// reuse counts on hand-built streams whose fillers and hitters are known. That observing changes
// nothing else is checked for every policy combination in differential_test.cpp.
#include "cache/hierarchy.hpp"
#include "cache/lru_stack_family.hpp"
#include "cache/mru_hierarchy.hpp"
#include "streams.hpp"

#include <catch2/catch.hpp>

namespace {

using namespace cats::cache;
using namespace cats::cache::test;

LevelConfig level(std::string name, std::uint64_t size, std::uint32_t ways) {
  return LevelConfig{std::move(name), size, ways, 64, Replacement::Lru, WritePolicy::WriteBack, AllocatePolicy::WriteAllocate};
}

HierarchyConfig observing(std::vector<LevelConfig> levels, Inclusion inclusion = Inclusion::NonInclusive) {
  HierarchyConfig c;
  c.levels = std::move(levels);
  c.inclusion = inclusion;
  c.countSetMisses = true;
  c.trackFillers = true;
  return c;
}

/* One read of the line at "address" by requester "tag". */
void read(Hierarchy& h, std::uint32_t tag, std::uint64_t address) {
  Outcome out;
  h.setRequester(tag);
  h.access(address, 8, false, out);
}

}  // namespace

TEST_CASE("per-set misses equal a count by set index of each access's outcome", "[cache][observations]") {
  SECTION("one write-back level: every miss is a demand miss") {
    // 4 KiB, 4 ways, 64-byte lines: 16 sets, set = address / 64 mod 16.
    Hierarchy h(observing({level("D1", 4096, 4)}));
    std::vector<std::uint64_t> expected(16, 0);
    Stream s = randomStream("random", 5, 4000, 16384, 30, 1);  // one byte each: no access straddles lines
    Outcome out;
    for (const Access& a : s.accesses) {
      h.access(a.address, a.size, a.isWrite, out);
      if (out.level(0).missed) ++expected[(a.address / 64) % 16];
    }
    CHECK(h.setMisses(0) == expected);
    CHECK(h.stats()[0].misses() > 1000);  // the stream misses often enough to test something
  }
  SECTION("two levels, reads only (no write-backs): each level by its own set index") {
    // L1 2 KiB 2-way: 16 sets; L2 16 KiB 4-way: 64 sets.
    Hierarchy h(observing({level("L1", 2048, 2), level("L2", 16384, 4)}));
    std::vector<std::uint64_t> l1(16, 0), l2(64, 0);
    Stream s = randomStream("random", 6, 4000, 32768, 0, 1);
    Outcome out;
    for (const Access& a : s.accesses) {
      h.access(a.address, a.size, a.isWrite, out);
      if (out.level(0).missed) ++l1[(a.address / 64) % 16];
      if (out.level(1).accessed && out.level(1).missed) ++l2[(a.address / 64) % 64];
    }
    CHECK(h.setMisses(0) == l1);
    CHECK(h.setMisses(1) == l2);
  }
  SECTION("a set thrashed by five lines in four ways misses on every access; the others never") {
    Hierarchy h(observing({level("D1", 4096, 4)}));
    Stream s = cycleStream("thrash", 5, std::uint64_t{16} * 64, 10);  // set 0 only
    Outcome out;
    for (const Access& a : s.accesses) h.access(a.address, a.size, a.isWrite, out);
    std::vector<std::uint64_t> expected(16, 0);
    expected[0] = 50;
    CHECK(h.setMisses(0) == expected);
  }
}

TEST_CASE("an access straddling two missing lines counts one miss, in its first line's set", "[cache][observations]") {
  Hierarchy h(observing({level("D1", 4096, 4)}));
  Outcome out;
  h.access(60, 8, false, out);  // bytes 60..67: lines 0 (set 0) and 1 (set 1)
  CHECK(h.stats()[0].misses() == 1);
  CHECK(h.setMisses(0)[0] == 1);
  CHECK(h.setMisses(0)[1] == 0);
}

TEST_CASE("reuse counts hits by the requester that brought the line in and the one that hit it", "[cache][observations]") {
  Hierarchy h(observing({level("D1", 4096, 4)}));
  read(h, 0, 0x1000);  // miss: line A, filled by 0
  read(h, 0, 0x1040);  // miss: line B, filled by 0
  read(h, 0, 0x1000);  // hit: 0 on 0's line
  read(h, 0, 0x1000);  // hit again on the set's most recent line (never settled without counting)
  read(h, 1, 0x1000);  // hit: 1 on 0's line
  read(h, 1, 0x1048);  // hit: 1 on 0's line
  read(h, 1, 0x2000);  // miss: line C, filled by 1
  read(h, 0, 0x2008);  // hit: 0 on 1's line
  const std::vector<ReuseCount> expected{{0, 0, 2}, {0, 1, 2}, {1, 0, 1}};
  CHECK(h.reuse(0) == expected);
}

TEST_CASE("a lower level's filler is the requester whose miss fetched the line into it", "[cache][observations]") {
  // L1 one 2-way set (128 B); L2 large: lines evicted from L1 are hit in L2 later.
  Hierarchy h(observing({level("L1", 128, 2), level("L2", 65536, 4)}));
  read(h, 7, 0x0000);  // both levels miss: filled by 7 in both
  read(h, 7, 0x0040);
  read(h, 8, 0x0080);  // evicts 0x0000 from L1
  read(h, 9, 0x0000);  // L1 misses (now filled by 9), L2 hits 7's line
  CHECK(h.reuse(0).empty());
  CHECK(h.reuse(1) == std::vector<ReuseCount>{{7, 9, 1}});
  read(h, 8, 0x0000);  // L1 hits 9's line
  CHECK(h.reuse(0) == std::vector<ReuseCount>{{9, 8, 1}});
}

TEST_CASE("in an exclusive hierarchy a victim moved down keeps its filler", "[cache][observations]") {
  Hierarchy h(observing({level("L1", 128, 2), level("L2", 65536, 4)}, Inclusion::Exclusive));
  read(h, 3, 0x0000);  // from memory into L1, filled by 3
  read(h, 4, 0x0040);
  read(h, 4, 0x0080);  // 0x0000 moves down to L2, still 3's
  read(h, 5, 0x0000);  // found in L2: a hit there on 3's line
  CHECK(h.reuse(1) == std::vector<ReuseCount>{{3, 5, 1}});
}

TEST_CASE("observing hierarchies are not warped and take no fast engine", "[cache][observations]") {
  HierarchyConfig sets = observing({level("D1", 4096, 4)});
  sets.trackFillers = false;
  HierarchyConfig fillers = observing({level("D1", 4096, 4)});
  fillers.countSetMisses = false;
  for (const HierarchyConfig& c : {sets, fillers}) {
    CHECK_FALSE(Hierarchy(c).capturesState());
    CHECK_FALSE(MruHierarchy::supports(c));
    CHECK_FALSE(LruStackFamily::fits(c));
  }
  HierarchyConfig plain = sets;
  plain.countSetMisses = false;
  CHECK(Hierarchy(plain).capturesState());
  CHECK(MruHierarchy::supports(plain));
  CHECK(Hierarchy(plain).setMisses(0).empty());
  CHECK(Hierarchy(plain).reuse(0).empty());
}

TEST_CASE("resetStats() clears per-set misses and reuse counts", "[cache][observations]") {
  Hierarchy h(observing({level("D1", 4096, 4)}));
  read(h, 0, 0x1000);
  read(h, 1, 0x1000);
  h.resetStats();
  CHECK(h.setMisses(0) == std::vector<std::uint64_t>(16, 0));
  CHECK(h.reuse(0).empty());
}
