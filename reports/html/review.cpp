// The design review (`cats-static review`, docs/review.md) as a section of the page: each
// finding with where it is, the problem in words, its legality and the D1 misses the simulated
// fix predicts, largest gain first as review sorts them.
#include "parts.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace cats::report::html {

namespace {

std::string legalText(const std::optional<bool>& legal) {
  if (!legal) return "<span class=\"count\">unknown</span>";
  return *legal ? "yes" : "<span class=\"warning\">no</span>";
}

/* Before and after as two bars on one scale, the saved part shown by the gap. */
std::string gainBars(const PredictedMisses& p) {
  constexpr double kWidth = 200;
  const double widest = static_cast<double>(std::max(p.before, p.after));
  if (widest <= 0) return {};
  const double before = kWidth * static_cast<double>(p.before) / widest, after = kWidth * static_cast<double>(p.after) / widest;
  return fmt::format("<svg class=\"bar\" width=\"{0}\" height=\"18\" role=\"img\" aria-label=\"D1 misses before and after\">"
                     "<rect class=\"m0\" y=\"0\" width=\"{1}\" height=\"8\"/><rect class=\"{3}\" y=\"10\" width=\"{2}\" height=\"8\"/></svg>",
                     coord(kWidth), coord(before), coord(after), p.after <= p.before ? "c1" : "miss");
}

std::string row(const Finding& f) {
  std::string out = fmt::format("<tr><td>{}</td><td data-v=\"{}:{:08}\"><code>{}:{}</code><br><span class=\"loc\">{}()</span></td><td>{}",
                                escape(f.kind), escape(f.file), f.line, escape(f.file), f.line, escape(f.function), escape(f.message));
  for (const std::string& sentence : f.sizes) out += fmt::format("<br><i>As the size grows:</i> {}", escape(sentence));
  if (!f.recommendation.empty()) out += fmt::format("<br><b>Recommendation:</b> {}", escape(f.recommendation));
  out += fmt::format("</td><td>{}</td>", legalText(f.legal));
  if (f.predicted.empty()) return out + "<td class=\"num\" data-v=\"-1\">not evaluated</td><td></td></tr>\n";
  const PredictedMisses& d1 = f.predicted.front();
  std::string levels;
  for (const PredictedMisses& p : f.predicted)
    levels += fmt::format("{}{} {} → {}", levels.empty() ? "" : "<br>", escape(p.level), number(p.before), number(p.after));
  return out + fmt::format("<td class=\"num\" data-v=\"{:.4f}\">{:+.1f} %<br><span class=\"count\">{}</span></td><td>{}</td></tr>\n",
                           d1.gainPercent(), -d1.gainPercent(), levels, gainBars(d1));
}

}  // namespace

std::string reviewSection(const std::vector<Finding>& findings) {
  std::string out = "<section id=\"review\"><h2>Design review</h2>\n";
  out += "<p>What <code>cats-static review</code> finds (docs/review.md): each fix is applied to the model, its legality checked with "
         "the dependences, and the transformed program simulated like this one. Only fixes the simulation says save first-level "
         "misses are listed; an illegal or unknown-legality one is not recommended.</p>\n";
  if (findings.empty()) return out + "<p>No finding: the simulated fixes save nothing here.</p></section>\n";
  out += fmt::format("<p>{} finding{}, largest predicted D1 gain first.</p>\n", findings.size(), findings.size() == 1 ? "" : "s");
  out += "<table class=\"sortable review\"><thead><tr><th>kind</th><th>where</th><th>problem</th><th>legal</th>"
         "<th class=\"num\">D1 misses</th><th>before / after</th></tr></thead><tbody>\n";
  for (const Finding& f : findings) out += row(f);
  return out + "</tbody></table></section>\n";
}

}  // namespace cats::report::html
