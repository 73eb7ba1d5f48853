// The frontend's loop facts on local scalars (frontend/carried_scalars.cpp): which locals a
// loop carries from one iteration to the next, and of which kind, as the vectorisers see them.
#include "ir/dump.hpp"
#include "support.hpp"

#include <catch2/catch.hpp>

using namespace cats;

namespace {

/* The carried scalars of every loop of "code"'s first function, as "loop-iterator: name=kind, ..." per loop, outermost first. */
std::vector<std::string> carriedByLoop(const std::string& code) {
  sym::Context ctx;
  ir::Program p = test::lowerSource(code, ctx);
  std::vector<std::string> out;
  std::function<void(const ir::Block&)> walk = [&](const ir::Block& block) {
    for (const auto& n : block) {
      const auto* l = std::get_if<ir::Loop>(&n.value);
      if (!l) continue;
      std::string line = l->iteratorName + ":";
      for (const ir::CarriedScalar& c : l->carried) line += " " + c.name + "=" + std::string(ir::toString(c.kind));
      out.push_back(line);
      walk(l->body);
    }
  };
  walk(p.functions.at(0).body);
  return out;
}

}  // namespace

TEST_CASE("carried local scalars: reductions, first-order recurrences and other recurrences", "[frontend][carried]") {
  struct Case {
    const char* code;
    std::vector<std::string> expected;
  };
  const Case cases[] = {
      // Reductions: every write is s = s op e and s is read nowhere else.
      {"long f(int n, const int *a) { long s = 0; for (int i = 0; i < n; i++) s += a[i]; return s; }", {"i: s=integer-reduction"}},
      {"float f(int n, const float *a) { float s = 1; for (int i = 0; i < n; i++) s = a[i] * s; return s; }", {"i: s=float-reduction"}},
      {"double f(int n, const double *a) { double s = 0; for (int i = 0; i < n; i++) s = s - a[i]; return s; }", {"i: s=float-reduction"}},
      // s = a[i] - s is no reduction: s's new value depends on s.
      {"double f(int n, const double *a) { double s = 0; for (int i = 0; i < n; i++) s = a[i] - s; return s; }", {"i: s=recurrence"}},
      // A running sum that is also stored (a scan) is a recurrence.
      {"void f(int n, const int *a, int *b) { int s = 0; for (int i = 0; i < n; i++) { s += a[i]; b[i] = s; } }", {"i: s=recurrence"}},
      // prev = a[i]: its new value depends on no carried value.
      {"void f(int n, const float *a, float *b) { float prev = 0; for (int i = 0; i < n; i++) { b[i] = a[i] + prev; prev = a[i]; } }",
       {"i: prev=first-order"}},
      // y = f(y) and the same through a store and its reload (deriche's ym1 = y1[...]).
      {"void f(int n, const float *a, float *b) { float y = 0; for (int i = 0; i < n; i++) { y = a[i] + 0.5f * y; b[i] = y; } }", {"i: y=recurrence"}},
      {"void f(int n, const float *a, float *c) { float ym1 = 0; for (int i = 0; i < n; i++) { c[i] = a[i] + 0.5f * ym1; ym1 = c[i]; } }",
       {"i: ym1=recurrence"}},
      // ym2 = ym1 hands a carried value on: a recurrence (of second order).
      {"void f(int n, const float *a, float *c) { float ym1 = 0, ym2 = 0; for (int i = 0; i < n; i++) { c[i] = a[i] + ym2; ym2 = ym1; ym1 = a[i]; } }",
       {"i: ym1=first-order ym2=recurrence"}},
      // Written before it is read: a temporary, not carried. Declared in the body: fresh each iteration.
      {"void f(int n, const float *a, float *b) { float t; for (int i = 0; i < n; i++) { t = a[i] * 2; b[i] = t; } }", {"i:"}},
      {"void f(int n, const float *a, float *b) { for (int i = 0; i < n; i++) { float t = a[i]; b[i] = t + t; } }", {"i:"}},
      // Written only under a branch: the read may see the last iteration's value.
      {"void f(int n, const float *a, float *b) { float t = 0; for (int i = 0; i < n; i++) { if (a[i] > 0) t = a[i]; b[i] = t; } }",
       {"i: t=first-order"}},
      // Read only: invariant, not carried.
      {"void f(int n, float k, const float *a, float *b) { for (int i = 0; i < n; i++) b[i] = k * a[i]; }", {"i:"}},
      // Nests: deriche's column pass (the recurrences live in the inner loop; the outer loop
      // re-initialises them), and a sum over a whole matrix (carried by both loops).
      {"void f(int n, const float *a, float *y) { for (int j = 0; j < n; j++) { float ym1 = 0; for (int i = 0; i < n; i++) { y[i * n + j] = a[i * n + j] + "
       "ym1; ym1 = y[i * n + j]; } } }",
       {"j:", "i: ym1=recurrence"}},
      {"long f(int n, const int *a) { long s = 0; for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) s += a[i * n + j]; return s; }",
       {"i: s=integer-reduction", "j: s=integer-reduction"}},
      // The REPS loop of int_sum: total carries the sum of the calls.
      {"long sum(int n, const int *a);\nlong f(const int *a) { long total = 0; for (int r = 0; r < 4; r++) total += sum(100, a); return total; }",
       {"r: total=integer-reduction"}},
  };
  for (const Case& c : cases) {
    INFO(c.code);
    CHECK(carriedByLoop(c.code) == c.expected);
  }
}

TEST_CASE("the IR dump shows what a loop carries", "[frontend][carried]") {
  sym::Context ctx;
  ir::Program p = test::lowerSource("long f(int n, const int *a) { long s = 0; for (int i = 0; i < n; i++) s += a[i]; return s; }", ctx);
  CHECK(ir::dump(p).find("[carries s: integer-reduction]") != std::string::npos);
}
