// The MRU-ordered fast engine against the general Hierarchy (itself checked against the
// reference model): identical demand flags on every access, identical statistics and contents,
// in every inclusion mode, through access() and through NewestHits (the stream's loops).
#include "cache/hierarchy.hpp"
#include "cache/lru_stack_family.hpp"
#include "cache/mru_hierarchy.hpp"
#include "streams.hpp"

#include <catch2/catch.hpp>

#include <array>
#include <tuple>

using namespace cats::cache;
using namespace cats::cache::test;

namespace {

LevelConfig lru(std::string name, std::uint64_t size, std::uint32_t ways, std::uint32_t line = 64) {
  LevelConfig l;
  l.name = std::move(name);
  l.sizeBytes = size;
  l.associativity = ways;
  l.lineBytes = line;
  return l;
}

void compare(const HierarchyConfig& config, const Stream& stream) {
  INFO(stream.name << ", " << config.levels.size() << " levels, D1 " << config.levels[0].sizeBytes << " B, " << toString(config.inclusion));
  Hierarchy general(config);
  MruHierarchy fast(config);
  MruHierarchy viaNewest(config);  // driven by NewestHits, as the stream's loops drive it (its own inline paths)
  MruHierarchy::NewestHits newest(viaNewest);
  // NewestHits with its eight-way scans in AVX-512 registers, where the engine offers them (two
  // eight-way levels on a processor that has AVX-512); else it follows viaNewest's outcomes.
  MruHierarchy viaVector(config);
  MruHierarchy::NewestHits vectorHits(viaVector);
  const bool vector = viaVector.vectorScans();
  Outcome expected;
  MruOutcome got, gotNewest, gotVector;
  for (std::size_t i = 0; i < stream.accesses.size(); ++i) {
    const Access& a = stream.accesses[i];
    general.access(a.address, a.size, a.isWrite, expected);
    fast.access(a.address, a.size, a.isWrite, got);
    if (newest.access(a.address, a.size, a.isWrite, gotNewest)) gotNewest = {1, 0};  // a hit on the set's newest line
    if (!vector) gotVector = gotNewest;
    else if (vectorHits.accessUncounted<true>(a.address, a.size, a.isWrite, gotVector) && vectorHits.counted(a.isWrite)) gotVector = {1, 0};
    for (std::size_t k = 0; k < config.levels.size(); ++k) {
      const bool accessed = got.accessed >> k & 1, missed = got.missed >> k & 1;
      const bool accessedNewest = gotNewest.accessed >> k & 1, missedNewest = gotNewest.missed >> k & 1;
      const bool accessedVector = gotVector.accessed >> k & 1, missedVector = gotVector.missed >> k & 1;
      if (accessed != expected.level(k).accessed || missed != expected.level(k).missed || accessedNewest != accessed ||
          missedNewest != missed || accessedVector != accessed || missedVector != missed) {
        INFO("access " << i << " at 0x" << std::hex << a.address << std::dec << " size " << a.size << (a.isWrite ? " write" : " read")
                       << ", level " << k);
        CHECK(accessed == expected.level(k).accessed);
        CHECK(missed == expected.level(k).missed);
        CHECK(accessedNewest == expected.level(k).accessed);
        CHECK(missedNewest == expected.level(k).missed);
        CHECK(accessedVector == expected.level(k).accessed);
        CHECK(missedVector == expected.level(k).missed);
        return;
      }
    }
  }
  newest.flush();
  vectorHits.flush();
  std::vector<const MruHierarchy*> engines = {&fast, &viaNewest};
  if (vector) engines.push_back(&viaVector);
  for (const MruHierarchy* engine : engines) {
    INFO((engine == &fast ? "access()" : engine == &viaNewest ? "NewestHits" : "NewestHits, vector scans"));
    REQUIRE(engine->stats().size() == general.stats().size());
    for (std::size_t k = 0; k < config.levels.size(); ++k) {
      INFO("level " << k);
      CHECK(engine->stats()[k] == general.stats()[k]);
    }
    CHECK(engine->memoryTraffic() == general.memoryTraffic());
    for (std::size_t k = 0; k < config.levels.size(); ++k) {
      INFO("contents of level " << k);
      CHECK(engine->contents(k) == general.contents(k));
    }
  }
}

}  // namespace

TEST_CASE("the MRU engine counts exactly what Hierarchy counts", "[cache][mru]") {
  std::vector<HierarchyConfig> configs;
  for (auto levels : {std::vector<LevelConfig>{lru("D1", 1024, 4)}, std::vector<LevelConfig>{lru("D1", 1024, 4), lru("LL", 4096, 8)},
                      std::vector<LevelConfig>{lru("D1", 2048, 2), lru("L2", 8192, 4), lru("L3", 32768, 16)},
                      std::vector<LevelConfig>{lru("D1", 32768, 8), lru("LL", 262144, 8)},
                      // two eight-way levels small enough for the streams to evict dirty lines the
                      // second level no longer holds (accessTwoLevels' write-back that misses)
                      std::vector<LevelConfig>{lru("D1", 4096, 8), lru("LL", 16384, 8)}}) {
    for (Inclusion inclusion : {Inclusion::NonInclusive, Inclusion::Inclusive, Inclusion::Exclusive}) {
      HierarchyConfig c;
      c.levels = levels;
      c.inclusion = inclusion;
      configs.push_back(c);
    }
  }
  std::vector<Stream> streams = {
      randomStream("random reads and writes", 1, 20000, 16384, 30),
      randomStream("random, mostly writes, straddling", 2, 20000, 65536, 80, 64),
      cycleStream("one set thrashed", 9, 256, 200, 3),
      // nine lines in one second-level set of the small eight-way pair (32 sets) and of
      // Cachegrind's (512 sets): the first level's dirty victim is also the second level's next
      // victim, so its write-back must land before the fetch below evicts it
      cycleStream("one second-level set thrashed, dirty victims", 9, 2048, 50, 2),
      cycleStream("one set of Cachegrind's second level thrashed, dirty victims", 9, 32768, 50, 2),
      sweepStream("sweep larger than the caches", 65536, 3, 8, 5),
      sweepStream("32-byte stores", 20000, 2, 32, 1),
      // NewestHits' path for an access across two lines whose first line is its set's newest
      tapStream("misaligned vector taps, stores across lines", 24, 1040, 2, 1),
      tapStream("misaligned vector taps, a few stores", 40, 2064, 2, 7),
  };
  for (const auto& config : configs)
    for (const auto& stream : streams) compare(config, stream);
}

TEST_CASE("the MRU engine, inclusive: a dirty line purged from above lands in the evicted line", "[cache][mru]") {
  // A 1-way 128-byte D1 (2 sets) over a 1-way 256-byte LL (4 sets): 0x0 and 0x100 share both
  // levels' set 0, so reading 0x100 makes the LL evict 0x0 and purge D1's dirty copy, which
  // counts a write-back from D1 and a write at the LL, and the victim leaves the LL dirty.
  HierarchyConfig c;
  c.levels = {lru("D1", 128, 1), lru("LL", 256, 1)};
  c.inclusion = Inclusion::Inclusive;
  MruHierarchy fast(c);
  MruOutcome o;
  fast.access(0x0, 8, true, o);
  fast.access(0x100, 8, false, o);
  const LevelStats& d1 = fast.stats()[0];
  const LevelStats& ll = fast.stats()[1];
  CHECK(d1.evictions == 1);  // 0x0 makes way for 0x100 in D1 first (write-back: it is dirty)
  CHECK(d1.invalidations == 0);  // gone from D1 already when the LL evicts it
  CHECK(d1.writebacks == 1);
  CHECK(ll.writes == 1);
  CHECK(ll.evictions == 1);
  CHECK(ll.writebacks == 1);
  CHECK(fast.contents(0) == std::vector<ResidentLine>{{0x100, false}});
  CHECK(fast.contents(1) == std::vector<ResidentLine>{{0x100, false}});

  // 2-way D1 keeps 0x0 while the 1-way LL evicts it: now the purge itself writes it back.
  c.levels = {lru("D1", 256, 2), lru("LL", 256, 1)};
  MruHierarchy purging(c);
  purging.access(0x0, 8, true, o);
  purging.access(0x100, 8, false, o);
  CHECK(purging.stats()[0].invalidations == 1);
  CHECK(purging.stats()[0].writebacks == 1);
  CHECK(purging.stats()[1].writes == 1);
  CHECK(purging.stats()[1].writebacks == 1);
  CHECK(purging.contents(0) == std::vector<ResidentLine>{{0x100, false}});
}

TEST_CASE("the MRU engine takes only the configurations it implements", "[cache][mru]") {
  HierarchyConfig c;
  c.levels = {lru("D1", 32768, 8), lru("LL", 262144, 8)};
  CHECK(MruHierarchy::supports(c));
  auto changed = [&](auto change) {
    HierarchyConfig d = c;
    change(d);
    return MruHierarchy::supports(d);
  };
  CHECK(!changed([](HierarchyConfig& d) { d.classifyMisses = true; }));
  CHECK(changed([](HierarchyConfig& d) { d.inclusion = Inclusion::Inclusive; }));
  CHECK(changed([](HierarchyConfig& d) { d.inclusion = Inclusion::Exclusive; }));
  CHECK(!changed([](HierarchyConfig& d) { d.levels[1].replacement = Replacement::Fifo; }));
  CHECK(!changed([](HierarchyConfig& d) { d.levels[0].write = WritePolicy::WriteThrough; }));
  CHECK(!changed([](HierarchyConfig& d) { d.levels[0].allocate = AllocatePolicy::NoWriteAllocate; }));
  CHECK(!changed([](HierarchyConfig& d) { d.levels[1].lineBytes = 128; }));
  CHECK_THROWS_AS(MruHierarchy([&] {
                    HierarchyConfig d = c;
                    d.classifyMisses = true;
                    return d;
                  }()),
                  std::invalid_argument);
}

TEST_CASE("firstLevelHolds: held lines, dirty ones when asked, in every engine that answers it", "[cache][mru][bulk]") {
  // Direct-mapped 1 KiB first level: 0x0 and 0x400 share set 0, 0x40 sits in set 1.
  HierarchyConfig c;
  c.levels = {lru("D1", 1024, 1), lru("LL", 8192, 4)};
  MruHierarchy fast(c);
  Hierarchy general(c);
  LruStackFamily family({[&] {
    HierarchyConfig one;
    one.levels = {lru("D1", 1024, 1)};
    return one;
  }()});
  MruOutcome o;
  Outcome g;
  FamilyOutcome f;
  const auto both = [&](std::uint64_t address, bool write) {
    fast.access(address, 8, write, o);
    general.access(address, 8, write, g);
    family.access(address, 8, write, f);
  };
  both(0x0, false);
  both(0x40, true);
  for (const auto& [address, dirty, held] : {std::tuple{0x0, false, true}, std::tuple{0x0, true, false}, std::tuple{0x40, true, true},
                                             std::tuple{0x80, false, false}}) {
    INFO("0x" << std::hex << address << (dirty ? " dirty" : ""));
    CHECK(fast.firstLevelHolds(address, dirty) == held);
    CHECK(general.firstLevelHolds(address, dirty) == held);
    if (!dirty) CHECK(family.firstLevelHolds(address) == held);
  }
  both(0x400, false);  // evicts 0x0 from the one way of set 0
  CHECK_FALSE(fast.firstLevelHolds(0x0, false));
  CHECK_FALSE(general.firstLevelHolds(0x0, false));
  CHECK_FALSE(family.firstLevelHolds(0x0));

  // No write-allocate: a written line that was only read in is held but clean, so a repetition
  // of the write would set its dirty bit (the run must be declined).
  HierarchyConfig noAllocate = c;
  noAllocate.levels[0].allocate = AllocatePolicy::NoWriteAllocate;
  Hierarchy h(noAllocate);
  h.access(0x100, 8, true, g);  // misses, not allocated
  CHECK_FALSE(h.firstLevelHolds(0x100, false));
  h.access(0x100, 8, false, g);
  CHECK(h.firstLevelHolds(0x100, false));
  CHECK_FALSE(h.firstLevelHolds(0x100, true));
}

TEST_CASE("vector scans: offered for two eight-way levels where the processor has AVX-512 and the configuration allows them",
          "[cache][mru][vector]") {
  HierarchyConfig c;
  c.levels = {lru("D1", 32768, 8), lru("LL", 262144, 8)};
  const bool processor = mru_row::vectorRowsSupported();
  if (!processor) WARN("this processor lacks AVX-512: the vector scans are not checked here");
  CHECK(MruHierarchy(c).vectorScans() == processor);
  c.vectorScans = false;
  CHECK_FALSE(MruHierarchy(c).vectorScans());
  c.vectorScans = true;
  c.levels = {lru("D1", 32768, 8), lru("LL", 262144, 16)};  // not two eight-way levels: the engine's general paths
  CHECK_FALSE(MruHierarchy(c).vectorScans());
}

TEST_CASE("vector scans: a row's scan and shift in AVX-512 registers does what the scalar one does", "[cache][mru][vector]") {
  if (!mru_row::vectorRowsSupported()) {
    WARN("this processor lacks AVX-512: scanShift8Vector is not checked here");
    return;
  }
  std::uint64_t seed = 12345;
  const auto next = [&seed] {  // xorshift: deterministic rows and keys
    seed ^= seed << 13;
    seed ^= seed >> 7;
    seed ^= seed << 17;
    return seed;
  };
  int hits = 0, misses = 0;
  for (int round = 0; round < 20000; ++round) {
    // A row as the engine keeps it: distinct lines of twelve, some dirty, empty ways last.
    std::array<std::uint64_t, 12> lines{};
    for (std::size_t i = 0; i < lines.size(); ++i) lines[i] = i + 1;
    for (std::size_t i = lines.size() - 1; i > 0; --i) std::swap(lines[i], lines[next() % (i + 1)]);
    std::array<std::uint64_t, 8> scalar{};
    const std::size_t filled = 1 + next() % 8;
    for (std::size_t w = 0; w < filled; ++w) scalar[w] = lines[w] << 1 | (next() & 1);
    const std::uint64_t key = (next() % 12 + 1) << 1, dirty = next() & 1;
    if ((scalar[0] ^ key) < 2) continue;  // a hit on the newest line: the callers settle it before scanning
    std::array<std::uint64_t, 8> vector = scalar;
    std::uint64_t carryScalar = 0, carryVector = 0;
    const bool hitScalar = mru_row::scanShiftWays<8, false>(scalar.data(), 8, key, dirty, carryScalar);
    const bool hitVector = mru_row::scanShiftWays<8, true>(vector.data(), 8, key, dirty, carryVector);
    INFO("round " << round);
    REQUIRE(hitScalar == hitVector);
    if (hitScalar) {
      ++hits;
      CHECK(vector == scalar);
    } else {
      ++misses;
      CHECK(carryVector == carryScalar);
      scalar[0] = key | dirty;  // what every caller writes after a miss
      CHECK(vector == scalar);
    }
  }
  CHECK(hits > 1000);
  CHECK(misses > 1000);
}
