// `cats-static review`, kind `layout` (issue 11): an array of structs walked by a loop that uses
// few of each element's bytes; the prediction (the trace split into a structure of arrays)
// checked against simulating the split written by hand, no finding where every field is used,
// the accesses a split cannot re-address reported not evaluated, and the split trace itself.
#include "tracer/layout.hpp"
#include "review_support.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <map>
#include <string>
#include <vector>

using namespace cats;
using test::checkAgainstFix;
using test::findingOf;
using test::parsed;

namespace {

/* The layout findings of `review ARGS --format json`. */
std::vector<nlohmann::json> layoutFindings(const std::string& args) {
  std::vector<nlohmann::json> found;
  const nlohmann::json review = parsed(test::runCli("review " + args + " --format json"));
  for (const auto& f : review.at("findings"))
    if (f.at("kind") == "layout") found.push_back(f);
  return found;
}

std::size_t containerNamed(const trace::Trace& t, const std::string& name) {
  for (const auto& c : t.containers)
    if (c.name == name) return c.id;
  FAIL("no container " << name);
  return 0;
}

}  // namespace

TEST_CASE("review layout: splitting the particles predicts what the structure of arrays by hand gives", "[review][layout]") {
  // 20,000 particles of 96 bytes (1.9 MB) drifted 10 times: the AoS walk fetches 1.5 lines per
  // particle (the block starts 16 bytes into a line), the split one a line per 8 particles of x and of vx.
  checkAgainstFix("examples/review/particles.c", "examples/review/particles-soa.c", "drift", 24, "", "layout");
  nlohmann::json f = findingOf("layout", "examples/review/particles.c");
  const std::string message = f.at("message"), recommendation = f.at("recommendation");
  INFO(message);
  CHECK(message.find("2 of its 10 fields (x, vx: 16 of 96 bytes of each element)") != std::string::npos);
  // 16 bytes over 1.25 lines per particle, on average over the 4 places a 16-byte aligned block starts in a line.
  CHECK(message.find("12.8 bytes used per 64-byte line fetched") != std::string::npos);
  CHECK(recommendation.find("structure of arrays") != std::string::npos);
  CHECK(recommendation.find("x, vx") != std::string::npos);
}

TEST_CASE("review layout: the prediction follows the bound sizes", "[review][layout]") {
  checkAgainstFix("examples/review/particles.c", "examples/review/particles-soa.c", "drift", 24, "-D N=5000 -D STEPS=4", "layout");
}

TEST_CASE("review layout: the split by hand, a dot product and loops using every field get none", "[review][layout]") {
  CHECK(layoutFindings("examples/review/particles-soa.c").empty());
  CHECK(layoutFindings("examples/review/dot.c").empty());
  const std::string file = test::writeFile(test::tempDir(), "all-fields.c",
                                           "struct v { double x, y, z; };\n"
                                           "struct v a[20000];\n"
                                           "double s;\n"
                                           "int main(void) {\n"
                                           "  for (int k = 0; k < 4; k++)\n"
                                           "    for (int i = 0; i < 20000; i++) s += a[i].x + a[i].y * a[i].z;\n"
                                           "  return 0;\n"
                                           "}\n");
  CHECK(layoutFindings(file).empty());
}

TEST_CASE("review layout: whole-element copies are reported not evaluated, with no prediction and no recommendation", "[review][layout]") {
  const std::string file = test::writeFile(test::tempDir(), "copy.c",
                                           "struct rec { double key; double payload[7]; long id; };\n"
                                           "struct rec a[4096], b[4096];\n"
                                           "double total;\n"
                                           "int main(void) {\n"
                                           "  for (int i = 0; i < 4096; i++) b[i] = a[i];\n"
                                           "  for (int k = 0; k < 8; k++)\n"
                                           "    for (int i = 0; i < 4096; i++) total += b[i].key;\n"
                                           "  return 0;\n"
                                           "}\n");
  auto found = layoutFindings(file);
  REQUIRE(found.size() == 1);
  const nlohmann::json& f = found.front();
  CHECK(f.at("line") == 7);
  CHECK(f.at("legal").is_null());
  CHECK(f.at("predicted").is_null());
  CHECK(f.at("recommendation") == "");
  const std::string message = f.at("message");
  CHECK(message.find("not evaluated: 'b[i]' reads or writes whole elements of 'b'") != std::string::npos);
}

TEST_CASE("review layout: the hottest loop is named, and elements picked through loaded data are not evaluated", "[review][layout]") {
  const std::string file = test::writeFile(test::tempDir(), "gather.c",
                                           "struct rec { double key; double payload[7]; long id; };\n"
                                           "struct rec a[8192];\n"
                                           "int idx[8192];\n"
                                           "double total;\n"
                                           "int main(void) {\n"
                                           "  for (int i = 0; i < 8192; i++) { idx[i] = (i * 7) % 8192; a[i].key = i; a[i].id = i; }\n"
                                           "  for (int k = 0; k < 4; k++)\n"
                                           "    for (int i = 0; i < 8192; i++) total += a[i].key;\n"
                                           "  for (int j = 0; j < 8192; j++) total += a[idx[j]].key;\n"
                                           "  return 0;\n"
                                           "}\n");
  auto found = layoutFindings(file);
  REQUIRE(found.size() == 1);
  // Line 6 writes 16 of 72 bytes 8,192 times; line 8 reads 8 of them 32,768 times: the hot loop.
  CHECK(found.front().at("line") == 8);
  CHECK(found.front().at("predicted").is_null());
  const std::string message = found.front().at("message");
  CHECK(message.find("(key: 8 of 72 bytes of each element)") != std::string::npos);
  CHECK(message.find("not evaluated: 'a[idx[j]].key' picks its element of 'a' through loaded data") != std::string::npos);
}

TEST_CASE("review layout: the split trace puts each field in an array of its own, or says why it cannot", "[review][layout]") {
  trace::Trace t = test::analyzeSource(
      "struct p { double x; int id; char name[12]; };\n"
      "struct p g[10];\n"
      "struct p h[10];\n"
      "double s;\n"
      "void first(const struct p *q) { s += q->x; }\n"
      "int main(void) {\n"
      "  for (int i = 0; i < 10; i++) s += g[i].x;\n"
      "  for (int i = 0; i < 10; i++) g[i].id = i;\n"
      "  for (int i = 0; i < 10; i++) g[i].name[3] = 'a';\n"
      "  for (int i = 0; i < 10; i++) s += h[i].x;\n"
      "  first(&h[2]);\n"
      "  return 0;\n"
      "}\n");
  const std::size_t g = containerNamed(t, "g");
  REQUIRE(t.containers[g].elementBytes == 24);
  std::string why;
  auto split = trace::split(t, g, &why);
  INFO(why);
  REQUIRE(split);
  // x, id and name are 24 bytes: no padding to drop, the block keeps its size; the arrays start at 0, 10 * 8 and 10 * 12.
  CHECK(sym::print(split->containers[g].sizeBytes) == "240");
  std::map<std::string, std::string> offsets;
  for (const auto& e : split->events)
    if (e.kind == trace::EventKind::Access && e.container == g) offsets[e.text] = sym::print(e.offset);
  CHECK(offsets["g[i].x"] == "8*i");
  CHECK(offsets["g[i].id"] == "4*i + 80");
  CHECK(offsets["g[i].name[3]"] == "12*i + 123");  // the fourth byte of its 12
  CHECK(offsets.size() == 3);
  for (std::size_t e = 0; e < t.events.size(); ++e)
    if (t.events[e].container != g) CHECK(sym::print(split->events[e].offset) == sym::print(t.events[e].offset));

  CHECK(!trace::split(t, containerNamed(t, "h"), &why));
  CHECK(why.find("without its subscripts") != std::string::npos);

  auto candidates = trace::findLayouts(t, {}, 64);
  REQUIRE(candidates.size() == 2);  // one per container: its first loop using at most half an element
  CHECK(candidates[0].name == "g");
  CHECK(candidates[0].fieldsUsed == std::vector<std::string>{"x"});
  CHECK(candidates[0].bytesUsed == 8);
  CHECK(candidates[0].loc.line == 7);
  CHECK(candidates[0].notEvaluated.empty());
  CHECK(candidates[1].name == "h");
  CHECK(candidates[1].notEvaluated.find("without its subscripts") != std::string::npos);
}
