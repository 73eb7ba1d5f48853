// Values a loop carries from one iteration to the next (ir::Recurrence) and loop tests the stream
// computes: `cur = nodes[cur].next` chased to its end, `prev = at` one iteration behind.
#include "sim/concretize.hpp"
#include "sim/stream.hpp"
#include "stream_support.hpp"
#include "support.hpp"
#include "tracer/trace_json.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <set>

using namespace cats;

namespace {

// A list of 64 nodes laid out with stride 7 (coprime with 64, so every node once), built with
// `prev` one iteration behind `at`, then chased from node 0 to the -1 of the last one.
const char* const kStridedList =
    "struct node { long value; int next; int pad; double weight; };\n"
    "double total;\n"
    "static double traverse(const struct node *nodes, int head) {\n"
    "  double s = 0.0;\n"
    "  int cur = head;\n"
    "  while (cur >= 0) {\n"
    "    s += nodes[cur].value * nodes[cur].weight;\n"
    "    cur = nodes[cur].next;\n"
    "  }\n"
    "  return s;\n"
    "}\n"
    "int main(void) {\n"
    "  struct node *nodes = (struct node *)__builtin_malloc(64 * sizeof(struct node));\n"
    "  for (int i = 0; i < 64; i++) nodes[i].next = -1;\n"
    "  int prev = 0;\n"
    "  for (int i = 1; i < 64; i++) {\n"
    "    int at = (i * 7) % 64;\n"
    "    nodes[prev].next = at;\n"
    "    prev = at;\n"
    "  }\n"
    "  total = traverse(nodes, 0);\n"
    "  return 0;\n"
    "}\n";

/* The Loop scopes of "t" that carry a value, in scope order. */
std::vector<const trace::Scope*> carryingLoops(const trace::Trace& t) {
  std::vector<const trace::Scope*> out;
  for (const trace::Scope& s : t.scopes)
    if (s.kind == trace::ScopeKind::Loop && !s.recurrences.empty()) out.push_back(&s);
  return out;
}

sim::Program compile(const trace::Trace& t, sim::RegisterModel model) {
  sim::ConcretizeOptions options;
  options.model = model;
  return sim::concretize(t, options);
}

}  // namespace

TEST_CASE("the frontend follows what a loop carries: a chase through stored indexes and a value one iteration behind", "[frontend][carried]") {
  trace::Trace t = test::analyzeSource(kStridedList);
  auto loops = carryingLoops(t);
  REQUIRE(loops.size() == 2);
  // main's build loop: prev holds 0, then (7 i) mod 64 of the iteration before.
  const trace::Scope& build = *loops[0];
  REQUIRE(build.recurrences.size() == 1);
  CHECK(sym::print(build.recurrences[0].start) == "0");
  CHECK(sym::print(build.recurrences[0].next) == "imod(7*" + build.iterator + ", 64)");
  CHECK(build.test.op == sym::ConditionOp::True);  // a counted loop needs no test
  // traverse's while loop: cur holds head (0 here), then the next field of its node; it runs while cur >= 0.
  const trace::Scope& chase = *loops[1];
  REQUIRE(chase.recurrences.size() == 1);
  const std::string cur = chase.recurrences[0].variable;
  CHECK(sym::print(chase.recurrences[0].start) == "0");
  CHECK(sym::print(chase.recurrences[0].next).find("load(") == 0);
  CHECK(sym::print(chase.recurrences[0].next).find("24*" + cur + " + 8") != std::string::npos);
  CHECK(sym::print(chase.test) == cur + " >= 0");
  // The analysis still calls the accesses indirect: they are, for any input.
  CHECK(test::findAccess(t, "nodes[cur].value", ir::AccessMode::Read, "traverse").classification.kind == trace::AccessClass::Indirect);

  // The trace file carries both, and reads them back.
  trace::Trace summaries = test::analyzeSummaries({test::writeFile(test::tempDir(), "list.c", kStridedList)});
  trace::Trace back = trace::readTraceJson(trace::writeTraceJson(summaries));
  auto before = carryingLoops(summaries), after = carryingLoops(back);
  REQUIRE(after.size() == before.size());
  for (std::size_t k = 0; k < before.size(); ++k) {
    REQUIRE(after[k]->recurrences.size() == before[k]->recurrences.size());
    CHECK(after[k]->recurrences[0].variable == before[k]->recurrences[0].variable);
    CHECK(sym::print(after[k]->recurrences[0].next) == sym::print(before[k]->recurrences[0].next));
    CHECK(sym::print(after[k]->test) == sym::print(before[k]->test));
  }
}

TEST_CASE("values a loop hands on are not followed where an iteration can end early, the load sees a later store, an arm sets them or nothing needs them", "[frontend][carried]") {
  const std::string head = "struct node { int next; int v; };\nstruct node nodes[100];\nint main(void) {\n  int cur = 0, prev = -1;\n";
  // continue skips the update: the next iteration may see the old value.
  CHECK(carryingLoops(test::analyzeSource(head + "  while (cur >= 0) {\n    if (nodes[cur].v) { cur = cur + 1; continue; }\n"
                                                 "    cur = nodes[cur].next;\n  }\n  return 0;\n}\n"))
            .empty());
  // List reversal: the next index is loaded before the body overwrites it; evaluated at the end
  // of the iteration it would read the new value.
  CHECK(carryingLoops(test::analyzeSource(head + "  while (cur >= 0) {\n    int nx = nodes[cur].next;\n    nodes[cur].next = prev;\n"
                                                 "    prev = cur;\n    cur = nx;\n  }\n  return prev;\n}\n"))
            .empty());
  // Set in one arm only: two values, no formula.
  CHECK(carryingLoops(test::analyzeSource(head + "  for (int i = 0; i < 50; i++) {\n    nodes[prev + 1].v = i;\n"
                                                 "    if (nodes[i].v > 3) prev = i;\n  }\n  return 0;\n}\n"))
            .empty());
  // A reduction feeds no address, bound or test: computing it would only cost the fast paths.
  CHECK(carryingLoops(test::analyzeSource(head + "  for (int i = 0; i < 100; i++) cur += nodes[i].v;\n  return cur;\n}\n")).empty());
  // A carried value that an address holds is followed.
  CHECK(carryingLoops(test::analyzeSource("int perm[100];\ndouble x[100];\nint main(void) {\n  int k = 0;\n  for (int i = 0; i < 100; i++) {\n"
                                          "    x[k] += 1.0;\n    k = perm[i];\n  }\n  return 0;\n}\n"))
            .size() == 1);
}

TEST_CASE("simulate chases a list the program built, in the program's order, to the end it stored", "[sim][carried][stored-values]") {
  trace::Trace t = test::analyzeSource(kStridedList);
  for (sim::RegisterModel model : {sim::RegisterModel::O0, sim::RegisterModel::O2}) {
    sim::Program p = compile(t, model);
    sim::AddressStream stream(p, {});
    auto records = test::drainStream(stream);
    auto value = test::addressesOf(records, t, "nodes[cur].value");
    auto next = test::addressesOf(records, t, "nodes[cur].next");
    auto link = test::addressesOf(records, t, "nodes[prev].next");
    // The chase visits every node once, in the order the build loop linked them, and stops at -1
    // (with --unknown-trips' 1 iteration it would make one).
    REQUIRE(value.size() == 64);
    REQUIRE(next.size() == 64);
    const auto nodes = static_cast<std::uint32_t>(test::findAccess(t, "nodes[cur].value", ir::AccessMode::Read, "traverse").container);
    const std::uint64_t base = *stream.baseOf(nodes);
    for (std::size_t k = 0; k < value.size(); ++k) {
      CHECK(value[k] == base + 24 * ((7 * k) % 64));
      CHECK(next[k] == value[k] + 8);
    }
    // The build loop writes nodes[prev].next with prev one iteration behind: node (7 (i - 1)) mod 64.
    REQUIRE(link.size() == 63);
    for (std::size_t i = 1; i < 64; ++i) CHECK(link[i - 1] == base + 24 * ((7 * (i - 1)) % 64) + 8);
    CHECK_FALSE(stream.usedPolicy());  // nothing drawn, nothing modelled
    CHECK(stream.storedValueUse().drawn == 0);
    CHECK(stream.storedValueUse().boundsModelled == 0);
    CHECK(stream.storedValueUse().boundsRead == 1);  // the chase's one run ended by its own test
  }
}

TEST_CASE("a do-while chase runs its first iteration untested, then while its test holds", "[sim][carried]") {
  std::string code = kStridedList;
  const std::string loop = "  while (cur >= 0) {\n    s += nodes[cur].value * nodes[cur].weight;\n    cur = nodes[cur].next;\n  }\n";
  REQUIRE(code.find(loop) != std::string::npos);
  code.replace(code.find(loop), loop.size(), "  do {\n    s += nodes[cur].value * nodes[cur].weight;\n    cur = nodes[cur].next;\n  } while (cur >= 0);\n");
  trace::Trace t = test::analyzeSource(code);
  REQUIRE(carryingLoops(t).size() == 2);
  CHECK(carryingLoops(t)[1]->testAfterBody);
  sim::Program p = compile(t, sim::RegisterModel::O2);
  sim::AddressStream stream(p, {});
  auto records = test::drainStream(stream);
  CHECK(test::addressesOf(records, t, "nodes[cur].value").size() == 64);
  CHECK_FALSE(stream.usedPolicy());
  // A side effect in a do-while's test would be seen one iteration early: no test then.
  code.replace(code.find("} while (cur >= 0);"), 19, "} while ((total += 1) > 0 && cur >= 0);");
  CHECK(carryingLoops(test::analyzeSource(code))[1]->test.op == sym::ConditionOp::True);
}

TEST_CASE("a chase that loses its value ends there and is modelled; --trips still wins", "[sim][carried]") {
  // Nothing stores the next fields: the chase knows node 0, then nothing.
  trace::Trace t = test::analyzeSource(
      "struct node { long value; int next; int pad; };\nstruct node nodes[500];\nlong s;\n"
      "int main(void) {\n  int cur = 0;\n  while (cur >= 0) {\n    s += nodes[cur].value;\n    cur = nodes[cur].next;\n  }\n  return 0;\n}\n");
  sim::Program p = compile(t, sim::RegisterModel::O0);
  sim::AddressStream stream(p, {});
  auto records = test::drainStream(stream);
  CHECK(test::addressesOf(records, t, "nodes[cur].value").size() == 1);
  CHECK(stream.usedPolicy());
  CHECK(stream.storedValueUse().boundsModelled == 1);
  CHECK(stream.storedValueUse().boundsRead == 0);
  // Lost, the chase runs --unknown-trips iterations in all, as a loop without a test would.
  sim::ConcretizeOptions five;
  five.model = sim::RegisterModel::O0;
  five.unknownTrips = 5;
  CHECK(test::addressesOf(test::drain(sim::concretize(t, five)), t, "nodes[cur].value").size() == 5);
}

TEST_CASE("a loop whose test the stream can compute runs until it fails", "[sim][carried]") {
  // No induction variable is tested against a bound, but i * i < 500 is a formula of the iterator.
  trace::Trace t = test::analyzeSource("double a[1000];\nint main(void) {\n  int i = 0;\n  while (i * i < 500) {\n    a[i] += 1.0;\n    i++;\n  }\n  return 0;\n}\n");
  for (sim::RegisterModel model : {sim::RegisterModel::O0, sim::RegisterModel::O2}) {
    sim::Program p = compile(t, model);
    sim::AddressStream stream(p, {});
    auto records = test::drainStream(stream);
    auto reads = test::addressesOf(records, t, "a[i]");
    CHECK(reads.size() == 2 * 23);  // a read and a write per iteration; 22 * 22 < 500 <= 23 * 23
    CHECK_FALSE(stream.usedPolicy());
  }
}
