// What the review tests share: running `review` and `simulate` through the CLI and checking a
// finding's prediction against simulating the fix written by hand.
#pragma once

#include "support.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <string>
#include <vector>

namespace cats::test {

inline nlohmann::json parsed(const CliResult& r) {
  INFO(r.err);
  REQUIRE(r.exitCode == 0);
  return nlohmann::json::parse(r.out);
}

/* D1 misses (reads and writes) of `simulate --format json`. */
inline std::uint64_t simulatedD1Misses(const std::string& args) {
  nlohmann::json j = parsed(runCli("simulate " + args + " --format json"));
  const auto& d1 = j.at("totals").at("D1");
  return d1.at("read_misses").get<std::uint64_t>() + d1.at("write_misses").get<std::uint64_t>();
}

/* The only finding of `review ARGS --format json`. */
inline nlohmann::json onlyFinding(const std::string& args) {
  nlohmann::json j = parsed(runCli("review " + args + " --format json"));
  REQUIRE(j.at("findings").size() == 1);
  return j.at("findings").at(0);
}

/* The finding of "kind" in `review ARGS --format json`; there must be one. */
inline nlohmann::json findingOf(const std::string& kind, const std::string& args) {
  nlohmann::json j = parsed(runCli("review " + args + " --format json"));
  std::vector<nlohmann::json> found;
  for (const auto& f : j.at("findings"))
    if (f.at("kind") == kind) found.push_back(f);
  REQUIRE(found.size() == 1);
  return found.front();
}

/* The finding of "kind" predicted for "file" at "line" of "function" is the fix written by hand in "fixed": within 10 %. */
inline void checkAgainstFix(const std::string& file, const std::string& fixed, const std::string& function, int line, const std::string& sizes,
                     const std::string& kind = "interchange") {
  nlohmann::json f = findingOf(kind, file + " " + sizes);
  CHECK(f.at("function") == function);
  CHECK(f.at("file") == file);
  CHECK(f.at("line") == line);
  CHECK(f.at("legal") == true);
  CHECK(!f.at("recommendation").get<std::string>().empty());
  const auto& p = f.at("predicted");
  CHECK(p.at("level") == "D1");
  const auto before = p.at("before").get<std::uint64_t>(), after = p.at("after").get<std::uint64_t>();
  CHECK(before == simulatedD1Misses(file + " " + sizes));
  const std::uint64_t handFixed = simulatedD1Misses(fixed + " " + sizes);
  INFO("predicted " << after << ", hand-fixed " << handFixed << ", before " << before);
  CHECK(after < before);
  CHECK(std::llabs(static_cast<long long>(after) - static_cast<long long>(handFixed)) * 10 <= static_cast<long long>(handFixed));
}


/* The Loop scopes of "t" in order of creation (outermost of a nest first). */
inline std::vector<std::size_t> loopScopes(const trace::Trace& t) {
  std::vector<std::size_t> loops;
  for (const auto& s : t.scopes)
    if (s.kind == trace::ScopeKind::Loop) loops.push_back(s.id);
  return loops;
}

}  // namespace cats::test
