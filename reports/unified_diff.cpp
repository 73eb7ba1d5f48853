// The line diff of `review --fix-diff`: the common first and last lines set aside, a longest
// common subsequence of the rest (fixes change a few nearby lines, so the rest is small), then
// the changes grouped into hunks with three lines of context.
#include "reports/unified_diff.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstddef>
#include <vector>

namespace cats::report {

namespace {

constexpr std::size_t kContext = 3;

/// One line of a text; "newline": it ends with one (only the last line may not).
struct Line {
  std::string text;
  bool newline = true;
  bool operator==(const Line& o) const = default;
};

std::vector<Line> linesOf(const std::string& text) {
  std::vector<Line> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) {
      lines.push_back({text.substr(start), false});
      break;
    }
    lines.push_back({text.substr(start, end - start), true});
    start = end + 1;
  }
  return lines;
}

enum class Op { Keep, Remove, Add };

/// One line of the edit script: "line" is in "before" (Keep, Remove) or "after" (Add).
struct Step {
  Op op = Op::Keep;
  std::size_t line = 0;
};

/* The steps from "a" to "b" by a longest common subsequence of the lines between the common prefix and suffix. */
std::vector<Step> editScript(const std::vector<Line>& a, const std::vector<Line>& b) {
  std::size_t prefix = 0;
  while (prefix < a.size() && prefix < b.size() && a[prefix] == b[prefix]) ++prefix;
  std::size_t suffix = 0;
  while (suffix < a.size() - prefix && suffix < b.size() - prefix && a[a.size() - 1 - suffix] == b[b.size() - 1 - suffix]) ++suffix;
  const std::size_t n = a.size() - prefix - suffix, m = b.size() - prefix - suffix;
  // lcs[i][j]: the longest common subsequence of the middle lines of "a" from i and "b" from j.
  std::vector<std::vector<std::size_t>> lcs(n + 1, std::vector<std::size_t>(m + 1, 0));
  for (std::size_t i = n; i-- > 0;)
    for (std::size_t j = m; j-- > 0;)
      lcs[i][j] = a[prefix + i] == b[prefix + j] ? lcs[i + 1][j + 1] + 1 : std::max(lcs[i + 1][j], lcs[i][j + 1]);
  std::vector<Step> steps;
  for (std::size_t k = 0; k < prefix; ++k) steps.push_back({Op::Keep, k});
  std::size_t i = 0, j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[prefix + i] == b[prefix + j]) {
      steps.push_back({Op::Keep, prefix + i++});
      ++j;
    } else if (j == m || (i < n && lcs[i + 1][j] >= lcs[i][j + 1])) {
      steps.push_back({Op::Remove, prefix + i++});
    } else {
      steps.push_back({Op::Add, prefix + j++});
    }
  }
  for (std::size_t k = 0; k < suffix; ++k) steps.push_back({Op::Keep, prefix + n + k});
  return steps;
}

/* "start,count" of a hunk header as diff -u writes it: ",1" left out, an empty range names the line before it. */
std::string range(std::size_t first, std::size_t count) {
  if (count == 1) return std::to_string(first + 1);
  return fmt::format("{},{}", count == 0 ? first : first + 1, count);
}

/* The hunk of steps [begin, end): its header and lines. */
std::string hunk(const std::vector<Step>& steps, std::size_t begin, std::size_t end, const std::vector<Line>& a, const std::vector<Line>& b) {
  std::size_t aFirst = 0, bFirst = 0, aCount = 0, bCount = 0;
  // Where the hunk starts in each text: the lines of each side before step "begin".
  for (std::size_t k = 0; k < begin; ++k) {
    if (steps[k].op != Op::Add) ++aFirst;
    if (steps[k].op != Op::Remove) ++bFirst;
  }
  std::string body;
  for (std::size_t k = begin; k < end; ++k) {
    const Step& s = steps[k];
    const Line& line = s.op == Op::Add ? b[s.line] : a[s.line];
    aCount += s.op != Op::Add;
    bCount += s.op != Op::Remove;
    body += (s.op == Op::Keep ? ' ' : s.op == Op::Remove ? '-' : '+') + line.text + "\n";
    if (!line.newline) body += "\\ No newline at end of file\n";
  }
  return fmt::format("@@ -{} +{} @@\n", range(aFirst, aCount), range(bFirst, bCount)) + body;
}

}  // namespace

std::string unifiedDiff(const std::string& path, const std::string& before, const std::string& after) {
  const std::vector<Line> a = linesOf(before), b = linesOf(after);
  const std::vector<Step> steps = editScript(a, b);
  std::vector<std::size_t> changed;
  for (std::size_t k = 0; k < steps.size(); ++k)
    if (steps[k].op != Op::Keep) changed.push_back(k);
  if (changed.empty()) return "";
  std::string out = fmt::format("--- a/{}\n+++ b/{}\n", path, path);
  std::size_t first = 0;
  for (std::size_t c = 1; c <= changed.size(); ++c) {
    // A hunk ends where the next change is more than twice the context away.
    if (c < changed.size() && changed[c] - changed[c - 1] <= 2 * kContext + 1) continue;
    std::size_t begin = changed[first] >= kContext ? changed[first] - kContext : 0;
    std::size_t end = std::min(changed[c - 1] + kContext + 1, steps.size());
    out += hunk(steps, begin, end, a, b);
    first = c;
  }
  return out;
}

}  // namespace cats::report
