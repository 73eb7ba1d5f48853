// Policy names, validate()'s messages, geometry and size parsing, presets.
#include "cache/config.hpp"
#include "cache/hierarchy.hpp"
#include "cache/presets.hpp"

#include <catch2/catch.hpp>

#include <algorithm>

namespace {

using namespace cats::cache;

HierarchyConfig one(LevelConfig level) {
  HierarchyConfig c;
  c.levels = {std::move(level)};
  return c;
}

bool mentions(const std::vector<std::string>& problems, const std::string& text) {
  return std::any_of(problems.begin(), problems.end(), [&](const std::string& p) { return p == text; });
}

}  // namespace

TEST_CASE("cache config: policy names round-trip and unknown names are rejected", "[cache][config]") {
  for (Replacement r : {Replacement::Lru, Replacement::Fifo, Replacement::Random, Replacement::TreePlru})
    CHECK(parseReplacement(toString(r)) == r);
  for (WritePolicy w : {WritePolicy::WriteBack, WritePolicy::WriteThrough}) CHECK(parseWritePolicy(toString(w)) == w);
  for (AllocatePolicy a : {AllocatePolicy::WriteAllocate, AllocatePolicy::NoWriteAllocate}) CHECK(parseAllocatePolicy(toString(a)) == a);
  for (Inclusion i : {Inclusion::NonInclusive, Inclusion::Inclusive, Inclusion::Exclusive}) CHECK(parseInclusion(toString(i)) == i);
  CHECK(toString(Replacement::TreePlru) == "plru");
  CHECK(toString(AllocatePolicy::NoWriteAllocate) == "no-write-allocate");
  CHECK(!parseReplacement("LRU"));
  CHECK(!parseReplacement("tree-plru"));
  CHECK(!parseWritePolicy("writeback"));
  CHECK(!parseAllocatePolicy(""));
  CHECK(!parseInclusion("noninclusive"));
}

TEST_CASE("cache config: every invalid configuration says what is wrong", "[cache][config]") {
  struct Case {
    HierarchyConfig config;
    std::string problem;
  };
  HierarchyConfig nine;
  for (int i = 0; i < 9; ++i) nine.levels.push_back(LevelConfig{"L" + std::to_string(i), 1024, 4, 64});
  HierarchyConfig duplicate;
  duplicate.levels = {LevelConfig{"D1", 1024, 4, 64}, LevelConfig{"D1", 4096, 4, 64}};
  HierarchyConfig shrinking;
  shrinking.levels = {LevelConfig{"D1", 1024, 4, 64}, LevelConfig{"L2", 4096, 4, 32}};
  HierarchyConfig exclusive;
  exclusive.levels = {LevelConfig{"D1", 1024, 4, 64}, LevelConfig{"L2", 4096, 4, 128}};
  exclusive.inclusion = Inclusion::Exclusive;
  const std::vector<Case> cases{
      {HierarchyConfig{}, "the hierarchy has no levels"},
      {nine, "the hierarchy has 9 levels; at most 8 are supported"},
      {one(LevelConfig{"", 1024, 4, 64}), "level 1: the name is empty"},
      {duplicate, "duplicate level name \"D1\""},
      {one(LevelConfig{"D1", 0, 4, 64}), "D1: size is zero"},
      {one(LevelConfig{"D1", std::uint64_t{8} << 30, 4, 64}), "D1: size 8589934592 is larger than the supported maximum 4GiB"},
      {one(LevelConfig{"D1", 1024, 4, 0}), "D1: line size is zero"},
      {one(LevelConfig{"D1", 1536, 4, 48}), "D1: line size 48 is not a power of two"},
      {one(LevelConfig{"D1", 30000, 8, 64}), "D1: size 30000 is not a multiple of line size 64 times associativity 8"},
      {one(LevelConfig{"D1", 1000, 0, 64}), "D1: size 1000 is not a multiple of line size 64"},
      {one(LevelConfig{"D1", 512, 16, 64}), "D1: associativity 16 is larger than the number of lines 8"},
      {one(LevelConfig{"D1", std::uint64_t{4} << 30, 0, 1}), "D1: a fully associative level of 4294967296 lines has too many ways"},
      {one(LevelConfig{"D1", 3 * 4 * 64, 4, 64}), "D1: number of sets 3 is not a power of two"},
      {one(LevelConfig{"D1", 6 * 64, 6, 64, Replacement::TreePlru}), "D1: tree-PLRU needs a power-of-two associativity, not 6"},
      {one(LevelConfig{"D1", 6 * 64, 0, 64, Replacement::TreePlru}), "D1: tree-PLRU needs a power-of-two associativity, not 6"},
      {shrinking, "L2: line size 32 is smaller than line size 64 of D1 above it"},
      {exclusive, "an exclusive hierarchy needs equal line sizes: L2 has 128, D1 has 64"},
  };
  for (const Case& c : cases) {
    std::vector<std::string> problems = validate(c.config);
    INFO("expected: " << c.problem);
    for (const std::string& p : problems) INFO("got: " << p);
    CHECK(mentions(problems, c.problem));
    CHECK_THROWS_AS(Hierarchy(c.config), std::invalid_argument);
  }
}

TEST_CASE("cache config: valid odd geometries are accepted", "[cache][config]") {
  CHECK(validate(one(LevelConfig{"D1", 6 * 64, 6, 64})).empty());    // 6-way, one set: fine for LRU
  CHECK(validate(one(LevelConfig{"D1", 6 * 64, 0, 64})).empty());    // fully associative, 6 lines
  CHECK(validate(one(LevelConfig{"D1", 1441792, 11, 64})).empty());  // Skylake-SP L3 slice: 2048 sets x 11 ways
  CHECK(validate(one(LevelConfig{"D1", 64, 1, 64})).empty());        // a single line
}

TEST_CASE("cache config: the invalid_argument lists the problems", "[cache][config]") {
  try {
    Hierarchy h(one(LevelConfig{"D1", 30000, 8, 48}));
    FAIL("no exception");
  } catch (const std::invalid_argument& e) {
    CHECK(std::string(e.what()) == "invalid cache hierarchy:\n  D1: line size 48 is not a power of two");
  }
}

TEST_CASE("cache config: Cachegrind geometry strings", "[cache][config]") {
  Parsed<LevelConfig> d1 = parseGeometry("32768,8,64", "D1");
  REQUIRE(d1.value);
  CHECK(*d1.value == LevelConfig{"D1", 32768, 8, 64});
  Parsed<LevelConfig> ll = parseGeometry(" 8MiB , 16 , 64 ", "LL");
  REQUIRE(ll.value);
  CHECK(ll.value->sizeBytes == 8u << 20);
  CHECK(parseGeometry("512,0,64", "FA").value->associativity == 0);
  struct Bad {
    const char* text;
    const char* error;
  };
  for (const Bad& b : {
           Bad{"32768,8", "D1: expected size,associativity,line (e.g. 32768,8,64), got \"32768,8\""},
           Bad{"32768,8,64,1", "D1: expected size,associativity,line (e.g. 32768,8,64), got \"32768,8,64,1\""},
           Bad{"", "D1: expected size,associativity,line (e.g. 32768,8,64), got \"\""},
           Bad{"big,8,64", "D1: size \"big\" does not start with a number"},
           Bad{"32768,eight,64", "D1: associativity \"eight\" is not a whole number"},
           Bad{"32768,8,-64", "D1: line size \"-64\" is not a whole number"},
           Bad{"32768,8,99999999999", "D1: line size \"99999999999\" is not a whole number"},
       }) {
    Parsed<LevelConfig> p = parseGeometry(b.text, "D1");
    CHECK(!p.value);
    CHECK(p.error == b.error);
  }
}

TEST_CASE("cache config: byte sizes with units", "[cache][config]") {
  struct Good {
    const char* text;
    std::uint64_t bytes;
  };
  for (const Good& g :
       {Good{"32768", 32768}, Good{"32KiB", 32768}, Good{"32K", 32768}, Good{"32 KB", 32768}, Good{"32kib", 32768}, Good{"1MiB", 1u << 20},
        Good{"8M", 8u << 20}, Good{"1.375MiB", 1441792}, Good{"2GiB", std::uint64_t{2} << 30}, Good{"64B", 64}, Good{"0.5K", 512}}) {
    INFO(g.text);
    CHECK(parseByteSize(g.text).value == g.bytes);
  }
  struct Bad {
    const char* text;
    const char* error;
  };
  for (const Bad& b :
       {Bad{"", "size \"\" does not start with a number"}, Bad{"KiB", "size \"KiB\" does not start with a number"},
        Bad{"32XB", "size \"32XB\" has an unknown unit (use B, K/KiB, M/MiB or G/GiB)"}, Bad{"1.2.3K", "size \"1.2.3K\" is not a number"},
        Bad{"1.K", "size \"1.K\" is not a number"}, Bad{"0.3", "size \"0.3\" is not a whole number of bytes"},
        Bad{"99999999999999999999", "size \"99999999999999999999\" is too large"},
        Bad{"20000000000G", "size \"20000000000G\" is too large"}}) {
    Parsed<std::uint64_t> p = parseByteSize(b.text);
    CHECK(!p.value);
    CHECK(p.error == b.error);
  }
  for (std::uint64_t bytes : {std::uint64_t{0}, std::uint64_t{1536}, std::uint64_t{32768}, std::uint64_t{1441792}, std::uint64_t{8} << 20,
                              std::uint64_t{3} << 30}) {
    INFO(formatByteSize(bytes));
    CHECK(parseByteSize(formatByteSize(bytes)).value == bytes);
  }
  CHECK(formatByteSize(32768) == "32KiB");
  CHECK(formatByteSize(1536) == "1536");
}

TEST_CASE("cache config: presets are valid and named consistently", "[cache][config]") {
  std::vector<std::string> names = presetNames();
  for (const char* expected : {"cats-paper", "intel-skylake", "amd-zen3", "cachegrind"})
    CHECK(std::find(names.begin(), names.end(), expected) != names.end());
  for (const std::string& name : names) {
    HierarchyConfig c = preset(name);
    INFO(name);
    CHECK(validate(c).empty());
    CHECK(c.levels.front().name == "D1");
    if (c.levels.size() == 2) CHECK(c.levels[1].name == "LL");
    if (c.levels.size() == 3) CHECK((c.levels[1].name == "L2" && c.levels[2].name == "L3"));
    for (const LevelConfig& l : c.levels) CHECK(l.lineBytes == 64);
  }
  HierarchyConfig paper = preset("cats-paper");
  CHECK(paper.levels[0] == LevelConfig{"D1", 32 * 1024, 8, 64, Replacement::Lru, WritePolicy::WriteBack, AllocatePolicy::WriteAllocate});
  CHECK(paper.levels[1] == LevelConfig{"LL", 256 * 1024, 8, 64, Replacement::Lru, WritePolicy::WriteBack, AllocatePolicy::WriteAllocate});
  CHECK(paper.inclusion == Inclusion::Inclusive);
  CHECK(preset("cachegrind").inclusion == Inclusion::NonInclusive);
  CHECK(preset("intel-skylake").levels[2].sizeBytes == 8u << 20);
  CHECK(preset("amd-zen3").levels[1].sizeBytes == 512u << 10);
  CHECK_THROWS_WITH(preset("pentium"), "unknown machine \"pentium\"; known machines: cats-paper, cachegrind, intel-skylake, amd-zen3");
}
