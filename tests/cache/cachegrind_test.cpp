// A non-inclusive D1/LL LRU write-allocate hierarchy must count the misses Cachegrind counts. The
// model below follows cachegrind's cg_sim.c: each set an array of tags, most recent first; an
// access checks every line it covers; D1 misses go to LL. Cachegrind models no write-backs and
// sends a D1 write miss to LL as a write, where we send the fill as a read: so D1's read and write
// misses compare one to one, and LL's read misses equal Cachegrind's LL read plus write misses.
#include "cache/hierarchy.hpp"
#include "cache/presets.hpp"
#include "streams.hpp"

#include <catch2/catch.hpp>

#include <vector>

namespace {

using namespace cats::cache;
using namespace cats::cache::test;

class CachegrindCache {
 public:
  CachegrindCache(std::uint64_t size, std::uint64_t assoc, std::uint64_t line)
      : assoc_(assoc), line_(line), sets_(size / (assoc * line)), tags_(sets_ * assoc, ~std::uint64_t{0}) {}

  /* cachesim_ref_is_miss: true if any line of [address, address + size) missed. */
  bool refIsMiss(std::uint64_t address, std::uint64_t size) {
    std::uint64_t block1 = address / line_, block2 = (address + size - 1) / line_;
    if (block1 == block2) return setRefIsMiss(block1);
    bool miss1 = setRefIsMiss(block1);
    bool miss2 = setRefIsMiss(block2);
    return miss1 || miss2;
  }

 private:
  bool setRefIsMiss(std::uint64_t block) {
    std::uint64_t* set = &tags_[(block % sets_) * assoc_];
    if (set[0] == block) return false;
    for (std::uint64_t i = 1; i < assoc_; ++i)
      if (set[i] == block) {
        for (std::uint64_t j = i; j > 0; --j) set[j] = set[j - 1];
        set[0] = block;
        return false;
      }
    for (std::uint64_t j = assoc_ - 1; j > 0; --j) set[j] = set[j - 1];
    set[0] = block;
    return true;
  }

  std::uint64_t assoc_, line_, sets_;
  std::vector<std::uint64_t> tags_;
};

struct CachegrindCounts {
  std::uint64_t d1mr = 0, d1mw = 0, dlmr = 0, dlmw = 0;
};

CachegrindCounts cachegrind(const std::vector<Access>& accesses) {
  CachegrindCache d1(32768, 8, 64), ll(262144, 8, 64);  // --D1=32768,8,64 --LL=262144,8,64
  CachegrindCounts n;
  for (const Access& a : accesses) {
    if (!d1.refIsMiss(a.address, a.size)) continue;
    ++(a.isWrite ? n.d1mw : n.d1mr);
    if (ll.refIsMiss(a.address, a.size)) ++(a.isWrite ? n.dlmw : n.dlmr);
  }
  return n;
}

/* "count" naturally aligned accesses (compiled C never straddles lines) of 1 to 8 bytes over
   "range" bytes, a third of them writes, in runs so that some lines are reused. */
std::vector<Access> alignedStream(std::uint64_t seed, std::size_t count, std::uint64_t range) {
  TestRandom r(seed);
  std::vector<Access> out;
  std::uint64_t address = 0;
  while (out.size() < count) {
    if (r.chance(10)) address = r.below(range);
    std::uint32_t size = 1u << r.below(4);
    address = address / size * size;
    out.push_back({0x10000000 + address, size, r.chance(33)});
    address = (address + size * (1 + r.below(16))) % range;
  }
  return out;
}

}  // namespace

TEST_CASE("cache cachegrind: the non-inclusive D1/LL hierarchy counts Cachegrind's misses", "[cache][cachegrind]") {
  for (std::uint64_t range : {std::uint64_t{64} << 10, std::uint64_t{512} << 10, std::uint64_t{4} << 20}) {
    std::vector<Access> accesses = alignedStream(range, 300000, range);
    Hierarchy h(preset("cachegrind"));
    Outcome out;
    for (const Access& a : accesses) h.access(a.address, a.size, a.isWrite, out);
    CachegrindCounts cg = cachegrind(accesses);
    INFO("range " << range);
    CHECK(h.stats()[0].readMisses == cg.d1mr);
    CHECK(h.stats()[0].writeMisses == cg.d1mw);
    CHECK(h.stats()[1].readMisses == cg.dlmr + cg.dlmw);
    CHECK(cg.dlmr + cg.dlmw > 0);
  }
}

TEST_CASE("cache cachegrind: a straddling access that half hits in D1 differs from Cachegrind", "[cache][cachegrind]") {
  // Documented difference: when either line of a straddling access misses in D1, Cachegrind sends
  // the whole access to LL; we send only the line that missed. D1: one set of 2 lines; LL: two
  // direct-mapped lines, so lines 1 and 3 collide there.
  HierarchyConfig c;
  c.levels = {LevelConfig{"D1", 128, 2, 64}, LevelConfig{"LL", 128, 1, 64}};
  Hierarchy h(c);
  CachegrindCache d1(128, 2, 64), ll(128, 1, 64);
  std::uint64_t cgLlMisses = 0;
  Outcome out;
  // line 1; line 3 (LL drops line 1); line 1 again (a D1 hit); lines 0 and 1 (0 misses, 1 hits in
  // D1; Cachegrind also looks line 1 up in LL and puts it back over line 3); line 3 again.
  for (auto [address, size] : {std::pair<std::uint64_t, std::uint64_t>{64, 8}, {192, 8}, {64, 8}, {60, 8}, {192, 8}}) {
    h.access(address, static_cast<std::uint32_t>(size), false, out);
    if (d1.refIsMiss(address, size) && ll.refIsMiss(address, size)) ++cgLlMisses;
  }
  CHECK(h.stats()[1].readMisses == 3);  // lines 1, 3 and 0
  CHECK(cgLlMisses == 4);               // Cachegrind misses line 3 again at the end
}
