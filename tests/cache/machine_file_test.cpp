// Machine files: every field, the errors that name it, and write -> read round trips.
#include "cache/machine_file.hpp"
#include "cache/presets.hpp"

#include <catch2/catch.hpp>

namespace {

using namespace cats::cache;

/* A machine file with one level whose members are "level" and whose other top-level members are
   "extra" (both JSON member lists without braces). */
std::string machine(const std::string& level, const std::string& extra = "") {
  return R"({"format": "cats-static-machine", "version": 1, )" + extra + R"("levels": [{)" + level + "}]}";
}

const std::string kLevel = R"("name": "D1", "size": 32768, "associativity": 8, "line": 64)";

std::string errorOf(const std::string& text) {
  try {
    parseMachineJson(text);
  } catch (const MachineFileError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("cache machine file: a full file", "[cache][machine]") {
  HierarchyConfig c = readMachineFile(CATS_CACHE_TEST_DIR "/machines/skylake-like.json");
  REQUIRE(c.levels.size() == 3);
  CHECK(c.inclusion == Inclusion::NonInclusive);
  CHECK(c.seed == 42);
  CHECK(c.levels[0] == LevelConfig{"D1", 32768, 8, 64, Replacement::TreePlru, WritePolicy::WriteBack, AllocatePolicy::WriteAllocate});
  CHECK(c.levels[1].sizeBytes == 1u << 20);
  CHECK(c.levels[2].sizeBytes == 1441792);  // 1.375 MiB: 2048 sets x 11 ways x 64 bytes
  CHECK(c.levels[2].replacement == Replacement::Random);
}

TEST_CASE("cache machine file: defaults and spellings", "[cache][machine]") {
  HierarchyConfig c = parseMachineJson(machine(kLevel));
  CHECK(c.inclusion == Inclusion::NonInclusive);
  CHECK(c.seed == 1);
  CHECK(c.levels[0] == LevelConfig{"D1", 32768, 8, 64});
  CHECK(parseMachineJson(machine(R"("name": "D1", "size": "32K", "associativity": 8, "line": 64)")).levels[0].sizeBytes == 32768);
  CHECK(parseMachineJson(machine(R"("name": "D1", "size": "8M", "associativity": 16, "line": 64)")).levels[0].sizeBytes == 8u << 20);
  CHECK(parseMachineJson(machine(R"("name": "D1", "size": 512, "associativity": "full", "line": 64)")).levels[0].associativity == 0);
  HierarchyConfig all = parseMachineJson(machine(
      R"("name": "D1", "size": 1024, "associativity": 4, "line": 32, "replacement": "fifo", "write": "write-through", "allocate": "no-write-allocate")",
      R"("inclusion": "exclusive", "seed": 99, )"));
  CHECK(all.inclusion == Inclusion::Exclusive);
  CHECK(all.seed == 99);
  CHECK(all.levels[0] == LevelConfig{"D1", 1024, 4, 32, Replacement::Fifo, WritePolicy::WriteThrough, AllocatePolicy::NoWriteAllocate});
}

TEST_CASE("cache machine file: errors name the field", "[cache][machine]") {
  struct Case {
    std::string text;
    std::string error;
  };
  const std::vector<Case> cases{
      {"{", "not valid JSON: "},
      {"[]", "machine file: must be a JSON object"},
      {R"({"version": 1, "levels": []})", "format: missing"},
      {R"({"format": "cats-static-trace", "version": 1})", "format: must be \"cats-static-machine\""},
      {R"({"format": "cats-static-machine"})", "version: missing"},
      {R"({"format": "cats-static-machine", "version": 2})", "version: must be 1"},
      {R"({"format": "cats-static-machine", "version": "1"})", "version: must be a non-negative whole number"},
      {R"({"format": "cats-static-machine", "version": 1})", "levels: missing"},
      {R"({"format": "cats-static-machine", "version": 1, "levels": []})", "levels: must be a non-empty array"},
      {R"({"format": "cats-static-machine", "version": 1, "levels": {}})", "levels: must be a non-empty array"},
      {R"({"format": "cats-static-machine", "version": 1, "levels": [3]})", "levels[0]: must be an object"},
      {R"({"format": "cats-static-machine", "version": 1, "cache": 3, "levels": []})", "cache: unknown field"},
      {machine(kLevel, R"("inclusion": "mostly", )"),
       "inclusion: unknown value \"mostly\" (expected non-inclusive, inclusive or exclusive)"},
      {machine(kLevel, R"("seed": -1, )"), "seed: must be a non-negative whole number"},
      {machine(kLevel, R"("seed": 1.5, )"), "seed: must be a non-negative whole number"},
      {machine(kLevel, R"("description": 7, )"), "description: must be a string"},
      {machine(R"("size": 32768, "associativity": 8, "line": 64)"), "levels[0].name: missing"},
      {machine(R"("name": 1, "size": 32768, "associativity": 8, "line": 64)"), "levels[0].name: must be a string"},
      {machine(R"("name": "D1", "associativity": 8, "line": 64)"), "levels[0].size: missing"},
      {machine(R"("name": "D1", "size": "32QB", "associativity": 8, "line": 64)"),
       "levels[0].size: size \"32QB\" has an unknown unit (use B, K/KiB, M/MiB or G/GiB)"},
      {machine(R"("name": "D1", "size": true, "associativity": 8, "line": 64)"), "levels[0].size: must be a string"},
      {machine(R"("name": "D1", "size": 32768, "line": 64)"), "levels[0].associativity: missing"},
      {machine(R"("name": "D1", "size": 32768, "associativity": "most", "line": 64)"),
       "levels[0].associativity: must be a whole number or \"full\""},
      {machine(R"("name": "D1", "size": 32768, "associativity": 8)"), "levels[0].line: missing"},
      {machine(R"("name": "D1", "size": 32768, "associativity": 8, "line": 4294967296)"), "levels[0].line: 4294967296 is too large"},
      {machine(kLevel + R"(, "assoc": 8)"), "levels[0].assoc: unknown field"},
      {machine(kLevel + R"(, "replacement": "LRU")"), "levels[0].replacement: unknown value \"LRU\" (expected lru, fifo, random or plru)"},
      {machine(kLevel + R"(, "write": "back")"), "levels[0].write: unknown value \"back\" (expected write-back or write-through)"},
      {machine(kLevel + R"(, "allocate": 0)"), "levels[0].allocate: must be a string"},
      {machine(R"("name": "D1", "size": 30000, "associativity": 8, "line": 64)"),
       "invalid cache hierarchy:\n  D1: size 30000 is not a multiple of line size 64 times associativity 8"},
  };
  for (const Case& c : cases) {
    INFO(c.text);
    std::string error = errorOf(c.text);
    CHECK(error.substr(0, c.error.size()) == c.error);
  }
  CHECK_THROWS_WITH(readMachineFile("/nonexistent/machine.json"), "/nonexistent/machine.json: cannot be read");
}

TEST_CASE("cache machine file: write then read gives the same hierarchy", "[cache][machine]") {
  for (const std::string& name : presetNames()) {
    HierarchyConfig c = preset(name);
    INFO(name << "\n" << writeMachineJson(c));
    CHECK(parseMachineJson(writeMachineJson(c)) == c);
  }
  HierarchyConfig odd;
  odd.levels = {LevelConfig{"D1", 1536, 0, 64, Replacement::TreePlru},
                LevelConfig{"L2", 1441792, 11, 64, Replacement::Random, WritePolicy::WriteThrough, AllocatePolicy::NoWriteAllocate}};
  odd.levels[0].replacement = Replacement::Fifo;  // 24 fully associative ways: not a power of two
  odd.inclusion = Inclusion::Inclusive;
  odd.seed = 123456789012345ull;
  CHECK(parseMachineJson(writeMachineJson(odd)) == odd);
  CHECK(writeMachineJson(preset("cats-paper")) == R"({
  "format": "cats-static-machine",
  "version": 1,
  "inclusion": "inclusive",
  "seed": 1,
  "levels": [
    {
      "name": "D1",
      "size": "32KiB",
      "associativity": 8,
      "line": 64,
      "replacement": "lru",
      "write": "write-back",
      "allocate": "write-allocate"
    },
    {
      "name": "LL",
      "size": "256KiB",
      "associativity": 8,
      "line": 64,
      "replacement": "lru",
      "write": "write-back",
      "allocate": "write-allocate"
    }
  ]
}
)");
}
