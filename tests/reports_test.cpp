// Report formats against golden files (tests/golden/*.txt, *.json); regenerate with
// tests/update_golden.sh and review the diff.
#include "../reports/note_groups.hpp"
#include "reports/analysis.hpp"
#include "support.hpp"

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

using namespace cats;

TEST_CASE("text and JSON reports match their golden files", "[reports][golden]") {
  test::AnalyzeOptions multiply;
  multiply.entries = {"multiply"};
  trace::Trace matmul = test::analyzeSummaries({"examples/matmul-heap"}, multiply);
  CHECK(report::analysisText(matmul) == test::readFile(test::sourcePath("tests/golden/matmul-heap.multiply.txt")));
  CHECK(report::analysisJson(matmul) == test::readFile(test::sourcePath("tests/golden/matmul-heap.multiply.json")));
  trace::Trace spmv = test::analyzeSummaries({"examples/spmv-csr"});
  CHECK(report::analysisText(spmv) == test::readFile(test::sourcePath("tests/golden/spmv-csr.txt")));
  CHECK(report::analysisJson(spmv) == test::readFile(test::sourcePath("tests/golden/spmv-csr.json")));
}

TEST_CASE("the JSON report holds every field of the contract", "[reports][json]") {
  auto j = nlohmann::json::parse(report::analysisJson(test::analyze({"examples/particles-aos"})));
  CHECK(j["format"] == "cats-static-analysis");
  CHECK(j["version"] == report::kAnalysisFormatVersion);
  for (const auto& c : j["containers"])
    for (const char* key : {"name", "kind", "element_bytes", "size_bytes"}) CHECK(c.contains(key));
  REQUIRE(!j["accesses"].empty());
  for (const auto& a : j["accesses"]) {
    for (const char* key : {"function", "file", "line", "column", "name", "container", "mode", "bytes", "offset", "class",
                            "stride_bytes", "indirect_via", "stack"})
      CHECK(a.contains(key));
    CHECK((a["mode"] == "read" || a["mode"] == "write"));
  }
  CHECK(j["histograms"]["program"]["stride-k"].get<int>() > 0);
}

TEST_CASE("histograms count every access once", "[reports]") {
  trace::Trace t = test::analyze({"examples/spmv-csr"});
  report::Histograms h = report::histograms(t);
  std::size_t accesses = 0;
  for (const auto& e : t.events) accesses += e.kind == trace::EventKind::Access;
  CHECK(h.program.total() == accesses);
  std::size_t byContainer = 0, byFunction = 0;
  for (const auto& [name, hist] : h.byContainer) byContainer += hist.total();
  for (const auto& [name, hist] : h.byFunction) byFunction += hist.total();
  CHECK(byContainer == accesses);
  CHECK(byFunction == accesses);
  CHECK(h.byContainer.at("x").counts[static_cast<std::size_t>(trace::AccessClass::Indirect)] == 1);
}

TEST_CASE("notes that say the same of several places read as one line naming them", "[reports][notes]") {
  const std::vector<std::string> notes = {
      "loops with an early exit (a.c:3:5 (loop i)) run their full trip count",
      "the size of buf depends on data",
      "loops with an early exit (a.c:9:5 (loop j)) run their full trip count",
      "data-dependent offsets (x[k] at a.c:4:7) draw one element per index and iteration, uniformly over the container",
      "loops with an early exit (a.c:12:5 (loop k)) run their full trip count",
      "loops with an early exit (b.c:1:1 (loop m)) run their full trip count",
      "loops with an early exit (b.c:7:1 (loop n)) run their full trip count",
      "data-dependent offsets (y[k] at a.c:5:7) draw one element per index and iteration, distinct within a run of the loop that carries the index (a chase)",
  };
  const std::vector<std::string> lines = cats::report::groupedNotes(notes, 3);
  REQUIRE(lines.size() == 4);
  CHECK(lines[0] ==
        "loops with an early exit (5 places: a.c:3:5 (loop i); a.c:9:5 (loop j); a.c:12:5 (loop k) and 2 more) run their full trip count");
  CHECK(lines[1] == notes[1]);  // no place: as it is
  CHECK(lines[2] == notes[3]);  // one place: as it is
  CHECK(lines[3] == notes[7]);  // same place kind, other consequence: its own line
  CHECK(cats::report::groupedNotes({"unbalanced (a.c:1 note"}) == std::vector<std::string>{"unbalanced (a.c:1 note"});
}
