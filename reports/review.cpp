// The review's findings as text for people and JSON for tools (docs/review.md).
#include "reports/review.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <tuple>

namespace cats::report {

double PredictedMisses::gainPercent() const {
  if (before == 0) return 0.0;
  return 100.0 * (static_cast<double>(before) - static_cast<double>(after)) / static_cast<double>(before);
}

std::optional<double> Finding::gainPercent() const {
  if (predicted.empty()) return std::nullopt;
  if (accesses) return std::max(predicted.front().gainPercent(), accesses->gainPercent());
  return predicted.front().gainPercent();
}

void sortFindings(std::vector<Finding>& findings) {
  std::stable_sort(findings.begin(), findings.end(), [](const Finding& a, const Finding& b) {
    // -1e300 ranks the unevaluated after every evaluated finding, whatever their gains.
    double ga = a.gainPercent().value_or(-1e300), gb = b.gainPercent().value_or(-1e300);
    if (ga != gb) return ga > gb;
    return std::tie(a.file, a.line, a.kind) < std::tie(b.file, b.line, b.kind);
  });
}

std::vector<Finding> withMinimumGain(std::vector<Finding> findings, double minGainPercent) {
  std::erase_if(findings, [minGainPercent](const Finding& f) {
    auto gain = f.gainPercent();
    return gain && *gain < minGainPercent;
  });
  return findings;
}

std::string reviewText(const std::vector<Finding>& findings) {
  if (findings.empty()) return "review: no findings\n";
  std::string out = fmt::format("review: {} finding{}\n", findings.size(), findings.size() == 1 ? "" : "s");
  for (const Finding& f : findings) {
    out += fmt::format("\n{}:{}: {} in {}(): {}\n", f.file, f.line, f.kind, f.function, f.message);
    for (const std::string& sentence : f.sizes) out += fmt::format("  as the size grows: {}\n", sentence);
    out += fmt::format("  legal: {}\n", f.legal ? (*f.legal ? "yes" : "no") : "unknown");
    if (f.predicted.empty()) out += "  predicted: not evaluated\n";
    for (const PredictedMisses& p : f.predicted)
      out += fmt::format("  {:<3} misses {:>12} -> {:>12} ({:+.1f} %)\n", p.level, p.before, p.after, -p.gainPercent());
    if (f.accesses)
      out += fmt::format("  {:<3} accesses {:>10} -> {:>12} ({:+.1f} %)\n", f.accesses->level, f.accesses->before, f.accesses->after,
                         -f.accesses->gainPercent());
    out += f.recommendation.empty() ? "  recommendation: none\n" : fmt::format("  recommendation: {}\n", f.recommendation);
  }
  return out;
}

std::string reviewJson(const std::vector<Finding>& findings) {
  using nlohmann::ordered_json;
  ordered_json list = ordered_json::array();
  for (const Finding& f : findings) {
    ordered_json item = {{"kind", f.kind}, {"function", f.function}, {"file", f.file}, {"line", f.line},
                         {"message", f.message}, {"recommendation", f.recommendation}};
    if (!f.sizes.empty()) item["sizes"] = f.sizes;  // optional (version 1 readers ignore it)
    item["legal"] = f.legal ? ordered_json(*f.legal) : ordered_json(nullptr);
    if (f.predicted.empty()) item["predicted"] = nullptr;
    else item["predicted"] = {{"level", f.predicted.front().level}, {"before", f.predicted.front().before}, {"after", f.predicted.front().after}};
    list.push_back(std::move(item));
  }
  ordered_json out = {{"format", "cats-static-review"}, {"version", kReviewFormatVersion}, {"findings", list}};
  return out.dump(2) + "\n";
}

}  // namespace cats::report
