// The SARIF of `cats-static review` checked by a real validator: Microsoft's SARIF Multitool
// (tests/sarif, installed by scripts/install-deps.sh) validates against the SARIF 2.1.0 schema
// and its own rules. A schema violation is an error; warnings (no informationUri: the tool has
// no public page) are allowed.
#include "review_support.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

using namespace cats;

namespace {

/* The validator's findings on "sarifPath" at level "error", as "RULE: message arguments". */
std::vector<std::string> validationErrors(const std::string& sarifPath) {
  REQUIRE(std::filesystem::exists(CATS_SARIF_MULTITOOL));  // scripts/install-deps.sh installs it (npm ci in tests/sarif)
  const std::string log = sarifPath + ".validation.sarif";
  // The validator is a self-contained .NET program: without ICU it needs the invariant culture.
  const std::string command = "DOTNET_SYSTEM_GLOBALIZATION_INVARIANT=1 " + std::string(CATS_SARIF_MULTITOOL) + " validate --output " +
                              log + " " + sarifPath + " >/dev/null 2>&1";
  REQUIRE(std::system(command.c_str()) != -1);
  REQUIRE(std::filesystem::exists(log));
  nlohmann::json result = nlohmann::json::parse(test::readFile(log));
  std::vector<std::string> errors;
  for (const auto& run : result.at("runs")) {
    const auto rules = run.at("tool").at("driver").value("rules", nlohmann::json::array());
    for (const auto& r : run.value("results", nlohmann::json::array())) {
      std::string level = r.value("level", "");
      if (level.empty() && r.contains("ruleIndex") && r.at("ruleIndex").get<std::size_t>() < rules.size())
        level = rules.at(r.at("ruleIndex").get<std::size_t>()).value("defaultConfiguration", nlohmann::json::object()).value("level", "warning");
      if (level == "error") errors.push_back(r.value("ruleId", "?") + ": " + r.at("message").dump());
    }
    for (const auto& invocation : run.value("invocations", nlohmann::json::array()))
      for (const char* kind : {"toolExecutionNotifications", "toolConfigurationNotifications"})
        for (const auto& n : invocation.value(kind, nlohmann::json::array()))
          if (n.value("level", "") == "error") errors.push_back(std::string(kind) + ": " + n.at("message").dump());
  }
  return errors;
}

std::string reviewSarifFile(const std::string& dir, const std::string& name, const std::string& args) {
  const std::string path = dir + "/" + name + ".sarif";
  test::CliResult r = test::runCli("review " + args + " --format sarif -o " + path);
  INFO(r.err);
  REQUIRE(r.exitCode == 0);
  return path;
}

}  // namespace

TEST_CASE("review: the SARIF validates against the SARIF 2.1.0 schema (SARIF Multitool)", "[review][sarif]") {
  const std::string dir = test::tempDir();
  const std::vector<std::pair<std::string, std::string>> reviews{
      {"recommended", "examples/review/column-sums.c -D N=1000"},
      {"illegal", "examples/review/wavefront.c -D N=1000"},
      {"two-kinds", "examples/review/column-sums-2d.c"},
      {"none", "examples/review/dot.c"},
  };
  for (const auto& [name, args] : reviews) {
    INFO(name << ": " << args);
    CHECK(validationErrors(reviewSarifFile(dir, name, args)).empty());
  }
}

TEST_CASE("review: the SARIF validator rejects a log that breaks the schema", "[review][sarif]") {
  // The check above could not fail if the validator accepted anything: a result without its
  // message and a version other than 2.1.0 must be schema errors.
  const std::string dir = test::tempDir();
  nlohmann::json log = nlohmann::json::parse(test::readFile(reviewSarifFile(dir, "good", "examples/review/column-sums.c -D N=1000")));
  log["version"] = "2.0.0";
  log["runs"][0]["results"][0].erase("message");
  const std::vector<std::string> errors = validationErrors(test::writeFile(dir, "broken.sarif", log.dump(2)));
  std::set<std::string> rules;
  for (const std::string& e : errors) rules.insert(e.substr(0, e.find(':')));
  INFO(errors.size() << " errors, the first: " << (errors.empty() ? "" : errors.front()));
  // JSON1019: the version is not in the schema's enum; JSON1002: a required property is missing.
  CHECK(rules == std::set<std::string>{"JSON1002", "JSON1019"});
}
