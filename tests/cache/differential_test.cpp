// The fast hierarchy against the reference model (reference_cache.hpp): for every replacement x
// write x allocate x inclusion combination, 1 to 3 levels, several geometries (fully associative
// ones and growing line sizes included) and random and adversarial streams, every access must give
// the same outcome at every level, and the runs the same statistics (every field) and contents.
#include "cache/hierarchy.hpp"
#include "reference_cache.hpp"
#include "streams.hpp"

#include <catch2/catch.hpp>

#include <sstream>
#include <tuple>

namespace {

using namespace cats::cache;
using namespace cats::cache::test;

struct LevelShape {
  std::uint64_t size;
  std::uint32_t associativity;
  std::uint32_t line;
};

struct Shape {
  std::string name;
  std::vector<LevelShape> levels;
};

/* Small caches, so that misses, evictions and write-backs are frequent. */
const std::vector<Shape>& shapes() {
  static const std::vector<Shape> all{
      {"set-associative", {{1024, 4, 64}, {4096, 8, 64}, {16384, 16, 64}}},
      {"fully-associative", {{512, 0, 64}, {2048, 4, 64}, {4096, 0, 64}}},
      {"growing-lines", {{512, 4, 32}, {2048, 0, 64}, {8192, 8, 128}}},
  };
  return all;
}

HierarchyConfig configOf(const Shape& shape, std::size_t levels, Replacement r, WritePolicy w, AllocatePolicy a, Inclusion inclusion,
                         bool classify) {
  HierarchyConfig c;
  for (std::size_t k = 0; k < levels; ++k) {
    const LevelShape& s = shape.levels[k];
    c.levels.push_back(LevelConfig{"L" + std::to_string(k + 1), s.size, s.associativity, s.line, r, w, a});
  }
  c.inclusion = inclusion;
  c.seed = 7;
  c.classifyMisses = classify;
  return c;
}

std::string describe(const HierarchyConfig& c) {
  std::ostringstream o;
  o << toString(c.inclusion) << ", seed " << c.seed << (c.classifyMisses ? ", classifying" : "") << ":";
  for (const LevelConfig& l : c.levels)
    o << " [" << l.name << " " << l.sizeBytes << "," << l.associativity << "," << l.lineBytes << " " << toString(l.replacement) << " "
      << toString(l.write) << " " << toString(l.allocate) << "]";
  return o.str();
}

/* The first field where "fast" and "ref" differ, or "". */
std::string diffStats(const LevelStats& fast, const RefStats& ref) {
  const std::tuple<const char*, std::uint64_t, std::uint64_t> fields[] = {
      {"reads", fast.reads, ref.reads},
      {"writes", fast.writes, ref.writes},
      {"readMisses", fast.readMisses, ref.readMisses},
      {"writeMisses", fast.writeMisses, ref.writeMisses},
      {"evictions", fast.evictions, ref.evictions},
      {"invalidations", fast.invalidations, ref.invalidations},
      {"writebacks", fast.writebacks, ref.writebacks},
      {"bytesFromBelow", fast.bytesFromBelow, ref.bytesFromBelow},
      {"bytesToBelow", fast.bytesToBelow, ref.bytesToBelow},
      {"readMissClass[cold]", fast.readMissClass[0], ref.readMissClass[0]},
      {"readMissClass[capacity]", fast.readMissClass[1], ref.readMissClass[1]},
      {"readMissClass[conflict]", fast.readMissClass[2], ref.readMissClass[2]},
      {"writeMissClass[cold]", fast.writeMissClass[0], ref.writeMissClass[0]},
      {"writeMissClass[capacity]", fast.writeMissClass[1], ref.writeMissClass[1]},
      {"writeMissClass[conflict]", fast.writeMissClass[2], ref.writeMissClass[2]},
  };
  for (const auto& [name, f, r] : fields)
    if (f != r) return std::string(name) + ": fast " + std::to_string(f) + ", reference " + std::to_string(r);
  return "";
}

std::string diffOutcome(const LevelOutcome& fast, const RefOutcome& ref) {
  if (fast.accessed != ref.accessed) return "accessed differs";
  if (fast.isWrite != ref.isWrite) return "read/write differs";
  if (fast.missed != ref.missed) return "hit/miss differs";
  if (static_cast<int>(fast.missClass) != ref.missClass) return "miss class differs";
  return diffStats(fast.effects, ref.effects);
}

/* The demand flags of a demand-only outcome against the reference's; its effects must stay zero. */
std::string diffDemand(const LevelOutcome& fast, const RefOutcome& ref) {
  RefOutcome flagsOnly = ref;
  flagsOnly.effects = RefStats{};
  std::string d = diffOutcome(fast, flagsOnly);
  return d.empty() ? "" : "demand-only outcome: " + d;
}

/* Whether the reference's last access hit the first level and did nothing else anywhere. */
bool refFirstLevelHitOnly(const std::vector<RefOutcome>& levels) {
  for (std::size_t k = 0; k < levels.size(); ++k) {
    if (!diffStats(LevelStats{}, levels[k].effects).empty()) return false;
    if (levels[k].accessed != (k == 0) || levels[k].missed) return false;
  }
  return true;
}

/* Replay "stream" on "config" as it is and with per-set misses and fillers counted (requester
   tags cycling 0, 1, 2): every access's outcome, the statistics and the contents must be the
   same; the per-set misses must sum to the level's misses, the reuse counts to its demand hits.
   The first difference, or "". */
std::string diffObserving(const HierarchyConfig& config, const Stream& stream) {
  HierarchyConfig observing = config;
  observing.countSetMisses = observing.trackFillers = true;
  Hierarchy plain(config);
  Hierarchy observed(observing);
  Outcome a, b;
  std::vector<std::uint64_t> demandHits(config.levels.size(), 0);
  for (std::size_t i = 0; i < stream.accesses.size(); ++i) {
    const Access& x = stream.accesses[i];
    plain.access(x.address, x.size, x.isWrite, a);
    observed.setRequester(static_cast<std::uint32_t>(i % 3));
    observed.access(x.address, x.size, x.isWrite, b);
    for (std::size_t k = 0; k < config.levels.size(); ++k) {
      const LevelOutcome& p = a.level(k);
      const LevelOutcome& o = b.level(k);
      if (p.accessed != o.accessed || p.isWrite != o.isWrite || p.missed != o.missed || p.missClass != o.missClass ||
          !(p.effects == o.effects))
        return stream.name + ", access #" + std::to_string(i) + ", level " + config.levels[k].name + ": observing changes the outcome";
      demandHits[k] += o.accessed && !o.missed;
    }
  }
  for (std::size_t k = 0; k < config.levels.size(); ++k) {
    const std::string where = stream.name + ", " + config.levels[k].name + ": ";
    if (!(plain.stats()[k] == observed.stats()[k])) return where + "observing changes the statistics";
    if (plain.contents(k) != observed.contents(k)) return where + "observing changes the contents";
    std::vector<std::uint64_t> sets = observed.setMisses(k);
    if (sets.size() != geometryOf(config.levels[k]).sets) return where + "not one count per set";
    std::uint64_t missed = 0;
    for (std::uint64_t m : sets) missed += m;
    if (missed != observed.stats()[k].misses()) return where + "the per-set misses do not add up to the misses";
    std::uint64_t hits = 0;
    for (const ReuseCount& r : observed.reuse(k)) {
      hits += r.hits;
      if (r.hitter > 2 || (r.filler > 2 && r.filler != ReuseCount::kUnknownFiller)) return where + "a tag no access had";
    }
    if (hits != demandHits[k]) return where + "the reuse counts do not add up to the demand hits";
  }
  return "";
}

/* Replay "stream" on both models, and on a second fast model filling demand-only outcomes (the
   other instantiation of every engine path); the first difference, or "". Also checks that the
   outcomes add up to the fast model's statistics. */
std::string diffRun(const HierarchyConfig& config, const Stream& stream) {
  Hierarchy fast(config);
  Hierarchy demandOnly(config);
  ReferenceHierarchy ref(config);
  Outcome out;
  Outcome demand(OutcomeDetail::DemandOnly);
  std::vector<LevelStats> summed(config.levels.size());
  for (std::size_t i = 0; i < stream.accesses.size(); ++i) {
    const Access& a = stream.accesses[i];
    fast.access(a.address, a.size, a.isWrite, out);
    demandOnly.access(a.address, a.size, a.isWrite, demand);
    ref.access(a.address, a.size, a.isWrite);
    bool hitOnly = refFirstLevelHitOnly(ref.lastOutcome());
    for (std::size_t k = 0; k <= config.levels.size(); ++k) {
      std::string d;
      if (k == config.levels.size()) {
        if (out.firstLevelHitOnly() != hitOnly || demand.firstLevelHitOnly() != hitOnly) d = "firstLevelHitOnly() differs";
      } else {
        d = diffOutcome(out.level(k), ref.lastOutcome()[k]);
        if (d.empty()) d = diffDemand(demand.level(k), ref.lastOutcome()[k]);
      }
      if (!d.empty()) {
        std::ostringstream o;
        o << stream.name << ", access #" << i << " (" << (a.isWrite ? "write" : "read") << " 0x" << std::hex << a.address << std::dec
          << " size " << a.size << "), " << (k < config.levels.size() ? "level " + config.levels[k].name : "all levels") << ": " << d;
        return o.str();
      }
      if (k < config.levels.size()) summed[k] += out.level(k).counts();
    }
  }
  for (std::size_t k = 0; k < config.levels.size(); ++k) {
    const std::string& name = config.levels[k].name;
    std::string d = diffStats(fast.stats()[k], ref.stats()[k]);
    if (d.empty() && !(demandOnly.stats()[k] == fast.stats()[k])) d = "the demand-only run's statistics differ";
    if (d.empty() && demandOnly.contents(k) != fast.contents(k)) d = "the demand-only run's contents differ";
    if (!d.empty()) return stream.name + ", final statistics of " + name + ": " + d;
    if (!(summed[k] == fast.stats()[k])) return stream.name + ", " + name + ": the outcomes do not add up to the statistics";
    std::vector<ResidentLine> lines = fast.contents(k);
    std::vector<std::pair<std::uint64_t, bool>> fastLines;
    fastLines.reserve(lines.size());
    for (const ResidentLine& l : lines) fastLines.emplace_back(l.address, l.dirty);
    if (fastLines != ref.contents(k)) return stream.name + ", final contents of " + name + " differ";
  }
  if (!(fast.memoryTraffic() == MemoryTraffic{ref.stats().back().bytesFromBelow, ref.stats().back().bytesToBelow}))
    return stream.name + ": memory traffic differs";
  return diffObserving(config, stream);
}

/* The streams a configuration is tested with, sized from its first and last levels. */
std::vector<Stream> streamsFor(const HierarchyConfig& config) {
  const LevelConfig& first = config.levels.front();
  const LevelConfig& last = config.levels.back();
  Geometry g1 = geometryOf(first), gl = geometryOf(last);
  std::vector<Stream> s;
  s.push_back(randomStream("random over twice the last level", 11, 2500, 2 * last.sizeBytes, 35));
  s.push_back(randomStream("random over twice the first level", 12, 2500, 2 * first.sizeBytes, 35));
  s.push_back(randomStream("write-heavy random", 13, 2500, last.sizeBytes, 90));
  s.push_back(cycleStream("first-level set thrashed by assoc+1 lines", g1.ways + 1, g1.sets * first.lineBytes, 30, 3));
  s.push_back(cycleStream("last-level set thrashed by assoc+1 lines", gl.ways + 1, gl.sets * last.lineBytes, 20, 5));
  s.push_back(sweepStream("sweeps over twice the last level", 2 * last.sizeBytes, 2, 8, 4));
  s.push_back(sweepStream("unaligned sweep (12-byte steps)", last.sizeBytes + first.sizeBytes, 2, 12, 2));
  return s;
}

void checkEveryCombination(Inclusion inclusion, std::size_t levels) {
  const Replacement replacements[] = {Replacement::Lru, Replacement::Fifo, Replacement::Random, Replacement::TreePlru};
  const WritePolicy writes[] = {WritePolicy::WriteBack, WritePolicy::WriteThrough};
  const AllocatePolicy allocates[] = {AllocatePolicy::WriteAllocate, AllocatePolicy::NoWriteAllocate};
  std::size_t runs = 0;
  for (const Shape& shape : shapes()) {
    if (inclusion == Inclusion::Exclusive && shape.name == "growing-lines") continue;  // needs equal line sizes
    for (Replacement r : replacements)
      for (WritePolicy w : writes)
        for (AllocatePolicy a : allocates)
          for (bool classify : {true, false}) {
            HierarchyConfig config = configOf(shape, levels, r, w, a, inclusion, classify);
            REQUIRE(validate(config).empty());
            for (const Stream& stream : streamsFor(config)) {
              std::string d = diffRun(config, stream);
              INFO(shape.name << " " << describe(config));
              CHECK(d == "");
              ++runs;
            }
          }
  }
  CHECK(runs > 0);
}

}  // namespace

TEST_CASE("cache differential: non-inclusive, 1 level", "[cache][differential]") { checkEveryCombination(Inclusion::NonInclusive, 1); }
TEST_CASE("cache differential: non-inclusive, 2 levels", "[cache][differential]") { checkEveryCombination(Inclusion::NonInclusive, 2); }
TEST_CASE("cache differential: non-inclusive, 3 levels", "[cache][differential]") { checkEveryCombination(Inclusion::NonInclusive, 3); }
TEST_CASE("cache differential: inclusive, 1 level", "[cache][differential]") { checkEveryCombination(Inclusion::Inclusive, 1); }
TEST_CASE("cache differential: inclusive, 2 levels", "[cache][differential]") { checkEveryCombination(Inclusion::Inclusive, 2); }
TEST_CASE("cache differential: inclusive, 3 levels", "[cache][differential]") { checkEveryCombination(Inclusion::Inclusive, 3); }
TEST_CASE("cache differential: exclusive, 1 level", "[cache][differential]") { checkEveryCombination(Inclusion::Exclusive, 1); }
TEST_CASE("cache differential: exclusive, 2 levels", "[cache][differential]") { checkEveryCombination(Inclusion::Exclusive, 2); }
TEST_CASE("cache differential: exclusive, 3 levels", "[cache][differential]") { checkEveryCombination(Inclusion::Exclusive, 3); }

TEST_CASE("cache differential: random mixed per-level policies", "[cache][differential]") {
  TestRandom pick(2024);
  const Replacement replacements[] = {Replacement::Lru, Replacement::Fifo, Replacement::Random, Replacement::TreePlru};
  for (int trial = 0; trial < 300; ++trial) {
    const Shape& shape = shapes()[pick.below(shapes().size())];
    std::size_t levels = 1 + pick.below(3);
    HierarchyConfig config = configOf(shape, levels, Replacement::Lru, WritePolicy::WriteBack, AllocatePolicy::WriteAllocate,
                                      static_cast<Inclusion>(pick.below(3)), pick.chance(50));
    if (config.inclusion == Inclusion::Exclusive && shape.name == "growing-lines") config.inclusion = Inclusion::Inclusive;
    config.seed = pick.next();
    for (LevelConfig& l : config.levels) {
      l.replacement = replacements[pick.below(4)];
      l.write = pick.chance(50) ? WritePolicy::WriteBack : WritePolicy::WriteThrough;
      l.allocate = pick.chance(50) ? AllocatePolicy::WriteAllocate : AllocatePolicy::NoWriteAllocate;
    }
    REQUIRE(validate(config).empty());
    Stream stream = randomStream("random", pick.next(), 2000, 2 * config.levels.back().sizeBytes, pick.below(100),
                                 static_cast<std::uint32_t>(1 + pick.below(64)));
    INFO("trial " << trial << ": " << describe(config));
    CHECK(diffRun(config, stream) == "");
  }
}

/* Streams with much reuse: a few arrays walked with short random strides and revisits, so that
   first-level hits on a set's most recent line (settled inline) alternate with hits on older lines
   of the same set and with misses. */
Stream localityStream(std::uint64_t seed, std::size_t count, std::uint64_t range) {
  TestRandom r(seed);
  Stream s{"locality", {}};
  std::uint64_t cursor[4] = {0, range / 4, range / 2, 3 * range / 4};
  for (std::size_t i = 0; i < count; ++i) {
    std::uint64_t& c = cursor[r.below(4)];
    c = r.chance(10) ? r.below(range) : (c + r.below(24)) % range;
    s.accesses.push_back({0x100000 + c, static_cast<std::uint32_t>(1 + r.below(8)), r.chance(30)});
  }
  return s;
}

TEST_CASE("cache differential: every engine instantiation on seeded random streams", "[cache][differential]") {
  // One configuration per compile-time axis combination (shared replacement or mixed x inclusion
  // x classification), write policies drawn per level, long streams over a few sizes.
  TestRandom pick(99);
  const Replacement replacements[] = {Replacement::Lru, Replacement::Fifo, Replacement::Random, Replacement::TreePlru};
  std::size_t runs = 0;
  for (int r = 0; r <= 4; ++r)
    for (Inclusion inclusion : {Inclusion::NonInclusive, Inclusion::Inclusive, Inclusion::Exclusive})
      for (bool classify : {false, true})
        for (int trial = 0; trial < 4; ++trial) {
          const Shape& shape = shapes()[inclusion == Inclusion::Exclusive ? trial % 2 : trial % 3];
          HierarchyConfig config =
              configOf(shape, 1 + trial % 3, Replacement::Lru, WritePolicy::WriteBack, AllocatePolicy::WriteAllocate, inclusion, classify);
          config.seed = pick.next();
          for (std::size_t k = 0; k < config.levels.size(); ++k) {
            LevelConfig& l = config.levels[k];
            l.replacement = r < 4 ? replacements[r] : replacements[(k + static_cast<std::size_t>(trial)) % 4];
            if (trial == 3) {  // the others keep write-back write-allocate, the common case
              l.write = pick.chance(50) ? WritePolicy::WriteBack : WritePolicy::WriteThrough;
              l.allocate = pick.chance(50) ? AllocatePolicy::WriteAllocate : AllocatePolicy::NoWriteAllocate;
            }
          }
          REQUIRE(validate(config).empty());
          INFO("replacement axis " << r << ", trial " << trial << ": " << describe(config));
          std::uint64_t last = config.levels.back().sizeBytes;
          CHECK(diffRun(config, localityStream(pick.next(), 6000, 3 * last)) == "");
          CHECK(diffRun(config, randomStream("random", pick.next(), 6000, last / 2 + 64, 40, 8)) == "");
          runs += 2;
        }
  CHECK(runs == std::size_t{5} * 3 * 2 * 4 * 2);
}
