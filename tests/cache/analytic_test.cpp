// Counts derived by hand, every constant explained where it appears.
#include "cache/hierarchy.hpp"
#include "streams.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <set>

namespace {

using namespace cats::cache;
using namespace cats::cache::test;

constexpr std::uint64_t KiB = 1024;
constexpr std::size_t kCold = 0, kCapacity = 1, kConflict = 2;  // LevelStats' miss-class indices

LevelConfig level(std::string name, std::uint64_t size, std::uint32_t assoc, std::uint32_t line = 64, Replacement r = Replacement::Lru) {
  return LevelConfig{std::move(name), size, assoc, line, r};
}

/* The CATS paper's first level alone: 32 KiB, 8-way, 64-byte lines, so 512 lines in 64 sets. */
HierarchyConfig paperL1(bool classify = true) {
  HierarchyConfig c;
  c.levels = {level("D1", 32 * KiB, 8)};
  c.classifyMisses = classify;
  return c;
}

void replay(Hierarchy& h, const std::vector<Access>& accesses) {
  Outcome out;
  for (const Access& a : accesses) h.access(a.address, a.size, a.isWrite, out);
}

void read(Hierarchy& h, std::uint64_t address, std::uint32_t size = 8) {
  Outcome out;
  h.access(address, size, false, out);
}

void write(Hierarchy& h, std::uint64_t address, std::uint32_t size = 8) {
  Outcome out;
  h.access(address, size, true, out);
}

}  // namespace

TEST_CASE("cache analytic: streaming 1 MiB misses once per line, all cold", "[cache][analytic]") {
  Hierarchy h(paperL1());
  replay(h, sweepStream("1 MiB", 1024 * KiB, 1, 8).accesses);
  const LevelStats& s = h.stats()[0];
  CHECK(s.reads == 1024 * KiB / 8);        // one read per 8 bytes: 131072
  CHECK(s.readMisses == 1024 * KiB / 64);  // one miss per 64-byte line: 16384
  CHECK(s.readMissClass[kCold] == s.readMisses);
  CHECK(s.bytesFromBelow == 1024 * KiB);        // every line fetched once
  CHECK(s.evictions == 1024 * KiB / 64 - 512);  // all lines but the first 512 (the capacity) evict one
  CHECK(s.writebacks == 0);                     // nothing was written
}

TEST_CASE("cache analytic: a second pass over 16 KiB hits entirely", "[cache][analytic]") {
  Hierarchy h(paperL1());
  replay(h, sweepStream("16 KiB twice", 16 * KiB, 2, 8).accesses);
  const LevelStats& s = h.stats()[0];
  CHECK(s.reads == 2 * 16 * KiB / 8);    // two passes of 2048 reads
  CHECK(s.readMisses == 16 * KiB / 64);  // 256 cold misses in the first pass, none in the second
  CHECK(s.readMissClass[kCold] == 256);
  CHECK(s.evictions == 0);  // 256 lines fit in 512
}

TEST_CASE("cache analytic: assoc+1 lines in one set thrash LRU and are conflict misses", "[cache][analytic]") {
  Hierarchy h(paperL1());
  // 64 sets x 64-byte lines: addresses 4096 bytes apart share a set. 9 of them cycle through 8 ways:
  // under LRU the line needed next is always the one just evicted.
  const std::uint64_t rounds = 100;
  replay(h, cycleStream("9 lines, one set", 9, 64 * 64, rounds).accesses);
  const LevelStats& s = h.stats()[0];
  CHECK(s.reads == 9 * rounds);
  CHECK(s.readMisses == 9 * rounds);   // every access misses
  CHECK(s.readMissClass[kCold] == 9);  // the first round
  // A fully associative cache of 512 lines would hold all 9: the rest are conflicts.
  CHECK(s.readMissClass[kConflict] == 9 * (rounds - 1));
  CHECK(s.readMissClass[kCapacity] == 0);
}

TEST_CASE("cache analytic: a 64 KiB sweep repeated through 32 KiB gives capacity misses", "[cache][analytic]") {
  Hierarchy h(paperL1());
  replay(h, sweepStream("64 KiB twice", 64 * KiB, 2, 8).accesses);
  const LevelStats& s = h.stats()[0];
  const std::uint64_t lines = 64 * KiB / 64;  // 1024 lines, twice the capacity
  CHECK(s.readMisses == 2 * lines);           // LRU keeps the last 512 lines of a pass, and the next pass needs the first ones first
  CHECK(s.readMissClass[kCold] == lines);
  CHECK(s.readMissClass[kCapacity] == lines);  // a fully associative LRU cache of 512 lines misses them too
  CHECK(s.readMissClass[kConflict] == 0);
}

TEST_CASE("cache analytic: write-back evicts dirty lines as write-backs", "[cache][analytic]") {
  Hierarchy h(paperL1(false));
  // Write 64 KiB (1024 lines), 8 bytes at a time: the first 512 lines fill the cache dirty; each
  // of the other 512 evicts one of them.
  replay(h, sweepStream("write 64 KiB", 64 * KiB, 1, 8, 1).accesses);
  const LevelStats& s = h.stats()[0];
  CHECK(s.writes == 64 * KiB / 8);
  CHECK(s.writeMisses == 1024);
  CHECK(s.evictions == 512);
  CHECK(s.writebacks == 512);
  CHECK(s.bytesToBelow == 512 * 64);
  CHECK(s.bytesFromBelow == 1024 * 64);  // write-allocate fetches every line first
  CHECK(h.memoryTraffic() == MemoryTraffic{1024 * 64, 512 * 64});
  std::vector<ResidentLine> lines = h.contents(0);
  CHECK(lines.size() == 512);
  CHECK(std::all_of(lines.begin(), lines.end(), [](const ResidentLine& l) { return l.dirty; }));
}

TEST_CASE("cache analytic: write-through sends every write down and keeps lines clean", "[cache][analytic]") {
  HierarchyConfig c;
  c.levels = {level("D1", 32 * KiB, 8), level("LL", 256 * KiB, 8)};
  c.levels[0].write = WritePolicy::WriteThrough;
  Hierarchy h(c);
  read(h, 0x1000);  // brings the line into both levels: one read miss each
  for (int i = 0; i < 100; ++i) write(h, 0x1000);
  const LevelStats& d1 = h.stats()[0];
  const LevelStats& ll = h.stats()[1];
  CHECK(d1.writes == 100);
  CHECK(d1.writeMisses == 0);
  CHECK(d1.bytesToBelow == 100 * 8);  // each 8-byte write goes down
  CHECK(ll.writes == 100);            // and is a write access at LL
  CHECK(ll.writeMisses == 0);
  CHECK(ll.reads == 1);
  CHECK(h.contents(0) == std::vector<ResidentLine>{{0x1000, false}});
  CHECK(h.contents(1) == std::vector<ResidentLine>{{0x1000, true}});  // LL is write-back: it holds the data
}

TEST_CASE("cache analytic: no-write-allocate leaves a written line absent", "[cache][analytic]") {
  HierarchyConfig c = paperL1(false);
  c.levels[0].allocate = AllocatePolicy::NoWriteAllocate;
  Hierarchy h(c);
  write(h, 0x2000);
  write(h, 0x2008);  // same line, still absent, so another miss
  const LevelStats& s = h.stats()[0];
  CHECK(s.writeMisses == 2);
  CHECK(s.bytesToBelow == 16);  // two 8-byte writes sent to memory
  CHECK(s.bytesFromBelow == 0);
  CHECK(!h.contains(0, 0x2000));
  read(h, 0x2000);  // a read allocates
  CHECK(h.contains(0, 0x2000));
}

TEST_CASE("cache analytic: a write-allocate write miss fetches the line as a read below", "[cache][analytic]") {
  HierarchyConfig c;
  c.levels = {level("D1", 32 * KiB, 8), level("LL", 256 * KiB, 8)};
  Hierarchy h(c);
  Outcome out;
  h.access(0x3000, 8, true, out);
  CHECK(out.level(0).accessed);
  CHECK(out.level(0).isWrite);
  CHECK(out.level(0).missed);
  CHECK(out.level(1).accessed);
  CHECK(!out.level(1).isWrite);  // the fill
  CHECK(out.level(1).missed);
  CHECK(out.level(0).effects.bytesFromBelow == 64);
  CHECK(out.memoryTraffic() == MemoryTraffic{64, 0});
  CHECK(h.contents(0) == std::vector<ResidentLine>{{0x3000, true}});
  CHECK(h.contents(1) == std::vector<ResidentLine>{{0x3000, false}});
}

TEST_CASE("cache analytic: a line-straddling access counts once per level", "[cache][analytic]") {
  HierarchyConfig c;
  c.levels = {level("D1", 32 * KiB, 8), level("LL", 256 * KiB, 8)};
  Hierarchy h(c);
  Outcome out;
  h.access(60, 8, false, out);  // bytes 60..67: the ends of lines 0 and 1
  CHECK(h.stats()[0].reads == 1);
  CHECK(h.stats()[0].readMisses == 1);
  CHECK(h.stats()[1].reads == 1);  // both lines missed in D1 and were fetched from LL: one access there
  CHECK(h.stats()[1].readMisses == 1);
  CHECK(h.stats()[0].bytesFromBelow == 2 * 64);
  CHECK(h.contains(0, 0));
  CHECK(h.contains(0, 64));
  h.access(60, 8, false, out);
  CHECK(h.stats()[0].reads == 2);
  CHECK(h.stats()[0].readMisses == 1);  // both lines are there now
  CHECK(!out.level(1).accessed);
}

TEST_CASE("cache analytic: a straddling access may evict its own first line", "[cache][analytic]") {
  // FIFO, one set of 2 ways. B (line 1) arrives before A (line 0), so B is the oldest. A read of
  // bytes 124..131 hits B and misses C (line 2), whose arrival evicts B. B must miss next time,
  // even though the access before it hit B.
  HierarchyConfig c;
  c.levels = {level("D1", 128, 2, 64, Replacement::Fifo)};
  Hierarchy h(c);
  read(h, 64);
  read(h, 0);
  read(h, 124);
  CHECK(h.stats()[0].readMisses == 3);
  CHECK(!h.contains(0, 64));
  read(h, 64);
  CHECK(h.stats()[0].readMisses == 4);
}

TEST_CASE("cache analytic: a size-0 access touches one byte", "[cache][analytic]") {
  Hierarchy h(paperL1(false));
  Outcome out;
  h.access(64, 0, false, out);
  CHECK(h.stats()[0].reads == 1);
  CHECK(h.contains(0, 64));
  CHECK(!h.contains(0, 0));
}

TEST_CASE("cache analytic: inclusive hierarchies back-invalidate, dirty data goes down", "[cache][analytic]") {
  HierarchyConfig c;
  // D1: one set of 4 lines. L2: 8 direct-mapped lines, so 0x0 and 0x200 (8 lines apart) collide there.
  c.levels = {level("D1", 256, 4), level("L2", 512, 1)};
  c.inclusion = Inclusion::Inclusive;
  Hierarchy h(c);
  write(h, 0x0);   // D1 holds 0x0 dirty, L2 holds it clean
  read(h, 0x200);  // L2 evicts 0x0: D1 must drop it too, and its dirty data goes down with it
  CHECK(!h.contains(0, 0x0));
  CHECK(!h.contains(1, 0x0));
  CHECK(h.stats()[0].invalidations == 1);
  CHECK(h.stats()[0].writebacks == 1);  // D1's dirty copy went into L2's victim...
  CHECK(h.stats()[1].writes == 1);      // ...as a write-back write there,
  CHECK(h.stats()[1].writebacks == 1);  // and the victim, now dirty, went to memory
  CHECK(h.memoryTraffic().writeBytes == 64);
  read(h, 0x0);  // D1 had room (it holds one line) but lost 0x0 to inclusion: a miss
  CHECK(h.stats()[0].readMisses == 2);

  c.inclusion = Inclusion::NonInclusive;
  Hierarchy free(c);
  write(free, 0x0);
  read(free, 0x200);
  CHECK(free.contains(0, 0x0));  // without inclusion D1 keeps it
  CHECK(free.stats()[0].invalidations == 0);
}

namespace {

/* Every combination of one replacement, write and allocation policy for all levels of "config". */
std::vector<HierarchyConfig> everyPolicy(const HierarchyConfig& config) {
  std::vector<HierarchyConfig> out;
  for (Replacement r : {Replacement::Lru, Replacement::Fifo, Replacement::Random, Replacement::TreePlru})
    for (WritePolicy w : {WritePolicy::WriteBack, WritePolicy::WriteThrough})
      for (AllocatePolicy a : {AllocatePolicy::WriteAllocate, AllocatePolicy::NoWriteAllocate}) {
        HierarchyConfig c = config;
        for (LevelConfig& l : c.levels) {
          l.replacement = r;
          l.write = w;
          l.allocate = a;
        }
        out.push_back(c);
      }
  return out;
}

}  // namespace

TEST_CASE("cache analytic: inclusive hierarchies stay inclusive", "[cache][analytic]") {
  HierarchyConfig base;
  base.levels = {level("D1", 1 * KiB, 4, 32), level("L2", 4 * KiB, 4, 64), level("L3", 8 * KiB, 2, 128)};
  base.inclusion = Inclusion::Inclusive;
  for (const HierarchyConfig& c : everyPolicy(base)) {
    Hierarchy h(c);
    Outcome out;
    Stream s = randomStream("random", 5, 1500, 32 * KiB, 40);
    for (const Access& a : s.accesses) {
      h.access(a.address, a.size, a.isWrite, out);
      for (std::size_t k = 0; k + 1 < h.levelCount(); ++k)
        for (const ResidentLine& line : h.contents(k)) REQUIRE(h.contains(k + 1, line.address));
    }
  }
}

TEST_CASE("cache analytic: exclusive hierarchies never hold a line twice", "[cache][analytic]") {
  HierarchyConfig base;
  base.levels = {level("D1", 1 * KiB, 4), level("L2", 2 * KiB, 0), level("L3", 4 * KiB, 8)};
  base.inclusion = Inclusion::Exclusive;
  for (const HierarchyConfig& c : everyPolicy(base)) {
    Hierarchy h(c);
    Outcome out;
    Stream s = randomStream("random", 6, 3000, 16 * KiB, 40);
    std::uint64_t most = 0;
    for (const Access& a : s.accesses) {
      h.access(a.address, a.size, a.isWrite, out);
      std::set<std::uint64_t> lines;
      std::size_t total = 0;
      for (std::size_t k = 0; k < h.levelCount(); ++k)
        for (const ResidentLine& line : h.contents(k)) {
          lines.insert(line.address);
          ++total;
        }
      REQUIRE(lines.size() == total);
      most = std::max<std::uint64_t>(most, total);
    }
    CHECK(most == (1 + 2 + 4) * KiB / 64);  // the levels fill up to their combined 112 lines
  }
}

TEST_CASE("cache analytic: exclusive levels swap a line and a victim", "[cache][analytic]") {
  HierarchyConfig c;
  c.levels = {level("D1", 64, 1), level("L2", 64, 1)};  // one line each
  c.inclusion = Inclusion::Exclusive;
  Hierarchy h(c);
  read(h, 0x0);  // from memory into D1 only
  CHECK(h.contents(0) == std::vector<ResidentLine>{{0x0, false}});
  CHECK(h.contents(1).empty());
  read(h, 0x40);  // into D1; 0x0 moves to L2
  CHECK(h.contents(0) == std::vector<ResidentLine>{{0x40, false}});
  CHECK(h.contents(1) == std::vector<ResidentLine>{{0x0, false}});
  read(h, 0x0);  // found in L2: moves up, 0x40 moves down
  CHECK(h.contents(0) == std::vector<ResidentLine>{{0x0, false}});
  CHECK(h.contents(1) == std::vector<ResidentLine>{{0x40, false}});
  CHECK(h.stats()[1].reads == 3);  // every D1 miss looked in L2
  CHECK(h.stats()[1].readMisses == 2);
  CHECK(h.stats()[0].bytesFromBelow == 3 * 64);
  CHECK(h.stats()[1].bytesFromBelow == 2 * 64);          // only two lines came from memory
  CHECK(h.memoryTraffic() == MemoryTraffic{2 * 64, 0});  // clean victims of the last level are dropped
}

TEST_CASE("cache analytic: replacement policies pick their victims", "[cache][analytic]") {
  // One set of 4 ways; lines A..E are 64 bytes apart. After A B C D, then C and A again:
  //   LRU evicts B (used least recently), FIFO evicts A (arrived first),
  //   tree-PLRU evicts D: the A access turned the root to the C/D half, the C access that half's
  //   bit to D.
  const std::uint64_t A = 0, B = 64, C = 128, D = 192, E = 256;
  auto victimOf = [&](Replacement r) {
    HierarchyConfig c;
    c.levels = {level("D1", 256, 4, 64, r)};
    Hierarchy h(c);
    for (std::uint64_t a : {A, B, C, D, C, A, E}) read(h, a);
    for (std::uint64_t a : {A, B, C, D})
      if (!h.contains(0, a)) return a;
    return E;
  };
  CHECK(victimOf(Replacement::Lru) == B);
  CHECK(victimOf(Replacement::Fifo) == A);
  CHECK(victimOf(Replacement::TreePlru) == D);
}

TEST_CASE("cache analytic: random replacement is deterministic for a seed", "[cache][analytic]") {
  auto run = [](std::uint64_t seed) {
    HierarchyConfig c;
    c.levels = {level("D1", 1 * KiB, 4, 64, Replacement::Random)};
    c.seed = seed;
    Hierarchy h(c);
    replay(h, cycleStream("5 lines, one set", 5, 4 * 64, 200).accesses);  // 4 sets x 64 B apart: one set
    return h.stats()[0].readMisses;
  };
  CHECK(run(1) == run(1));
  std::uint64_t misses = run(1);
  CHECK(misses > 5);        // more than the cold misses: 5 lines do not fit 4 ways
  CHECK(misses < 5 * 200);  // but random replacement keeps some, unlike LRU
  CHECK((run(2) != misses || run(3) != misses));
}

TEST_CASE("cache analytic: outcome flags and the first-level hit path", "[cache][analytic]") {
  HierarchyConfig c;
  c.levels = {level("D1", 32 * KiB, 8), level("LL", 256 * KiB, 8)};
  Hierarchy h(c);
  Outcome out;
  h.access(0x100, 8, false, out);
  CHECK(out.levelCount() == 2);
  CHECK(out.level(0).missed);
  CHECK(out.level(1).missed);
  h.access(0x108, 8, true, out);  // same line: a hit that only dirties it
  CHECK(out.level(0).accessed);
  CHECK(out.level(0).isWrite);
  CHECK(!out.level(0).missed);
  CHECK(!out.level(1).accessed);
  CHECK(out.level(0).effects == LevelStats{});
  CHECK(out.level(1).effects == LevelStats{});
  CHECK(out.level(0).counts().writes == 1);
  CHECK(h.contents(0) == std::vector<ResidentLine>{{0x100, true}});
}

TEST_CASE("cache analytic: one Outcome can serve several hierarchies", "[cache][analytic]") {
  HierarchyConfig c;
  c.levels = {level("D1", 1 * KiB, 2), level("LL", 4 * KiB, 4)};
  Hierarchy a(c), b(c), aAlone(c), bAlone(c);
  Outcome shared, ownA, ownB;
  Stream s = randomStream("random", 9, 3000, 8 * KiB, 30);
  for (std::size_t i = 0; i < s.accesses.size(); ++i) {
    const Access& x = s.accesses[i];
    Hierarchy& h = i % 3 == 0 ? a : b;  // interleaved, so the Outcome often comes from the other one
    Hierarchy& alone = i % 3 == 0 ? aAlone : bAlone;
    Outcome& own = i % 3 == 0 ? ownA : ownB;
    h.access(x.address, x.size, x.isWrite, shared);
    alone.access(x.address, x.size, x.isWrite, own);
    for (std::size_t k = 0; k < 2; ++k) REQUIRE(shared.level(k).counts() == own.level(k).counts());
  }
  CHECK(a.stats() == aAlone.stats());
  CHECK(b.stats() == bAlone.stats());
}

TEST_CASE("cache analytic: copies simulate independently", "[cache][analytic]") {
  Hierarchy h(paperL1(false));
  read(h, 0x0);
  read(h, 0x0);  // a hit, which h remembers for the next access
  Hierarchy copy = h;
  write(copy, 0x8);  // the same line: must dirty the copy's line, not h's
  CHECK(copy.stats()[0].readMisses == 1);
  CHECK(copy.stats()[0].writes == 1);
  CHECK(copy.contents(0) == std::vector<ResidentLine>{{0x0, true}});
  CHECK(h.stats()[0].writes == 0);
  CHECK(h.contents(0) == std::vector<ResidentLine>{{0x0, false}});
  Hierarchy moved = std::move(copy);
  write(moved, 0x10);
  CHECK(moved.stats()[0].writes == 2);
  h = moved;
  write(h, 0x18);
  CHECK(h.stats()[0].writes == 3);
  CHECK(moved.stats()[0].writes == 2);
  h.resetStats();
  CHECK(h.stats()[0] == LevelStats{});
  CHECK(h.contains(0, 0x0));
}
