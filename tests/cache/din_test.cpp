// Dinero IV din traces: the accepted forms, the errors (with line numbers), and replay.
#include "cache/din.hpp"
#include "cache/presets.hpp"

#include <catch2/catch.hpp>

#include <sstream>

namespace {

using namespace cats::cache;

std::vector<DinRecord> readAll(const std::string& text, std::uint64_t* fetches = nullptr) {
  std::istringstream in(text);
  DinReader reader(in);
  std::vector<DinRecord> out;
  while (auto r = reader.next()) out.push_back(*r);
  if (fetches) *fetches = reader.instructionFetches();
  return out;
}

std::string errorOf(const std::string& text) {
  try {
    readAll(text);
  } catch (const DinError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("cache din: labels, hex forms, default size, comments", "[cache][din]") {
  std::uint64_t fetches = 0;
  std::vector<DinRecord> r = readAll(
      "# a comment\n"
      "r 0x1000 8\n"
      "\n"
      "w 2000\n"
      "i 400000 4\n"
      "  0\t0X3000\t0x10  \r\n"
      "1 ABCDEF 1\n"
      "2 1234\n"
      "   # indented comment\n"
      "R 10 2\n",
      &fetches);
  REQUIRE(r.size() == 5);
  CHECK((!r[0].isWrite && r[0].address == 0x1000 && r[0].size == 8 && r[0].line == 2));
  CHECK((r[1].isWrite && r[1].address == 0x2000 && r[1].size == 4 && r[1].line == 4));  // size defaults to 4
  CHECK((!r[2].isWrite && r[2].address == 0x3000 && r[2].size == 16 && r[2].line == 6));
  CHECK((r[3].isWrite && r[3].address == 0xabcdef && r[3].size == 1));
  CHECK((!r[4].isWrite && r[4].address == 0x10 && r[4].size == 2 && r[4].line == 10));
  CHECK(fetches == 2);
}

TEST_CASE("cache din: errors carry the line number", "[cache][din]") {
  CHECK(errorOf("r 10\nx 20\n") == "line 2: unknown label \"x\" (expected r, w, i, 0, 1 or 2)");
  CHECK(errorOf("r 10\n\n4 20\n") == "line 3: label 4 (a Dinero escape record) is not supported");
  CHECK(errorOf("r\n") == "line 1: expected <label> <address> [<size>], found no address");
  CHECK(errorOf("r 10 4 5\n") == "line 1: expected <label> <address> [<size>], found 4 fields");
  CHECK(errorOf("# c\nw 0xfoo\n") == "line 2: address \"0xfoo\" is not a hexadecimal number");
  CHECK(errorOf("w 0x\n") == "line 1: address \"0x\" is not a hexadecimal number");
  CHECK(errorOf("w 10 -4\n") == "line 1: size \"-4\" is not a hexadecimal number");
  CHECK(errorOf("w 10 0\n") == "line 1: size is zero");
  CHECK(errorOf("w 10 100000000\n") == "line 1: size \"100000000\" is too large");
  CHECK(errorOf("r 1ffffffffffffffff\n") == "line 1: address \"1ffffffffffffffff\" does not fit in 64 bits");
  CHECK(errorOf("r ffffffffffffffff 2\n") == "line 1: the access runs past the end of the address space");
  try {
    readAll("r 0\nr 1\nq 2\n");
    FAIL("no exception");
  } catch (const DinError& e) {
    CHECK(e.line() == 3);
  }
}

TEST_CASE("cache din: replay feeds the hierarchy and streams", "[cache][din]") {
  Hierarchy h(preset("cachegrind"));
  std::ostringstream trace;
  // 1 MiB read sequentially in 8-byte steps, an instruction fetch every 8 reads, then 4 KiB written.
  for (std::uint64_t a = 0; a < (1u << 20); a += 8) {
    trace << "r " << std::hex << 0x10000000 + a << " 8\n";
    if (a % 64 == 0) trace << "i 400000\n";
  }
  for (std::uint64_t a = 0; a < 4096; a += 8) trace << "1 " << std::hex << 0x20000000 + a << " 8\n";
  std::istringstream in(trace.str());
  DinReplay replay = replayDin(in, h);
  CHECK(replay.reads == (1u << 20) / 8);
  CHECK(replay.writes == 4096 / 8);
  CHECK(replay.instructionFetches == (1u << 20) / 64);
  CHECK(h.stats()[0].reads == (1u << 20) / 8);
  CHECK(h.stats()[0].readMisses == (1u << 20) / 64);  // one per line
  CHECK(h.stats()[0].writeMisses == 4096 / 64);
}
