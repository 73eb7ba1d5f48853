// Scaling curves over a parameter sweep (`report --sweep`): per metric, the total and the
// containers that grow most, predicted as lines and simulated as dots.
#include "parts.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace cats::report::html {

namespace {

constexpr double kW = 720, kH = 300, kLeftMargin = 80, kBottomMargin = 30, kTop = 10;
constexpr std::size_t kCurves = 6;
constexpr std::array<const char*, kCurves> kColours{"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"};

std::string tickLabel(double v) {
  if (std::fabs(v) >= 1e9) return fmt::format("{:.3g}G", v / 1e9);
  if (std::fabs(v) >= 1e6) return fmt::format("{:.3g}M", v / 1e6);
  if (std::fabs(v) >= 1e3) return fmt::format("{:.3g}k", v / 1e3);
  return fmt::format("{:.3g}", v);
}

std::optional<double> valueOf(const sim::ScaleCell& c) { return c.predicted ? c.predicted : c.simulated; }

std::string chart(const sim::ScaleSeries& s, std::size_t metric) {
  // The total first, then the groups with the largest value at the last point.
  std::vector<std::size_t> curves;
  std::vector<std::pair<double, std::size_t>> ranked;
  for (std::size_t g = 0; g < s.groups.size(); ++g) {
    if (s.groups[g].kind == sim::ScaleGroupKind::Total) curves.push_back(g);
    else if (s.groups[g].kind == sim::ScaleGroupKind::Container)
      ranked.emplace_back(-valueOf(s.points.back().cells[g][metric]).value_or(0), g);
  }
  std::sort(ranked.begin(), ranked.end());
  for (const auto& [_, g] : ranked)
    if (curves.size() < kCurves) curves.push_back(g);
  double xLo = static_cast<double>(s.points.front().value), xHi = static_cast<double>(s.points.back().value);
  double yHi = 0;
  for (std::size_t g : curves)
    for (const sim::ScalePoint& p : s.points) {
      const sim::ScaleCell& c = p.cells[g][metric];
      yHi = std::max({yHi, c.predicted.value_or(0), c.simulated.value_or(0)});
    }
  if (yHi <= 0) yHi = 1;
  if (xHi <= xLo) xHi = xLo + 1;
  auto X = [&](double v) { return kLeftMargin + (v - xLo) / (xHi - xLo) * (kW - kLeftMargin - 10); };
  auto Y = [&](double v) { return kTop + (1 - v / yHi) * (kH - kTop - kBottomMargin); };
  std::string name{sim::toString(s.metrics[metric])};
  std::string out = fmt::format("<h3>{} over {}</h3>\n<svg class=\"curves\" width=\"{}\" height=\"{}\" role=\"img\" aria-label=\"{}\">\n", escape(name),
                                escape(s.parameter), coord(kW), coord(kH), escape(name));
  for (int k = 0; k <= 4; ++k) {
    double yv = yHi * k / 4, xv = xLo + (xHi - xLo) * k / 4;
    out += fmt::format("<line class=\"grid\" x1=\"{0}\" x2=\"{1}\" y1=\"{2}\" y2=\"{2}\"/><text x=\"{3}\" y=\"{4}\" class=\"tick\" text-anchor=\"end\">{5}</text>",
                       coord(kLeftMargin), coord(kW - 10), coord(Y(yv)), coord(kLeftMargin - 4), coord(Y(yv) + 4), tickLabel(yv));
    out += fmt::format("<text x=\"{}\" y=\"{}\" class=\"tick\" text-anchor=\"middle\">{}</text>", coord(X(xv)), coord(kH - kBottomMargin + 16), tickLabel(xv));
  }
  out += "\n";
  for (std::size_t i = 0; i < curves.size(); ++i) {
    std::size_t g = curves[i];
    std::string path, dots;
    for (const sim::ScalePoint& p : s.points) {
      const sim::ScaleCell& c = p.cells[g][metric];
      double x = X(static_cast<double>(p.value));
      if (c.predicted) path += fmt::format("{}{},{} ", path.empty() ? "M" : "L", coord(x), coord(Y(*c.predicted)));
      if (c.simulated)
        dots += fmt::format("<circle cx=\"{}\" cy=\"{}\" r=\"3\" fill=\"{}\"><title>{} = {}: simulated {}</title></circle>", coord(x), coord(Y(*c.simulated)),
                            kColours[i], escape(s.parameter), p.value, tickLabel(*c.simulated));
    }
    std::string label = s.groups[g].kind == sim::ScaleGroupKind::Total ? "total" : s.groups[g].name;
    if (!path.empty()) out += fmt::format("<path d=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"2\"><title>{} (predicted)</title></path>", path, kColours[i], escape(label));
    out += dots;
    out += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"10\" height=\"10\" fill=\"{}\"/><text x=\"{}\" y=\"{}\" class=\"tick\">{}</text>\n", coord(kLeftMargin + 10),
                       coord(kTop + 4 + 14.0 * static_cast<double>(i)), kColours[i], coord(kLeftMargin + 24), coord(kTop + 13 + 14.0 * static_cast<double>(i)), escape(label));
  }
  return out + "</svg>\n";
}

}  // namespace

std::string scalingSection(const sim::ScaleSeries& series) {
  std::string out = "<section id=\"scaling\"><h2>Scaling</h2>\n";
  if (series.points.empty()) return out + "<p>The sweep has no points.</p></section>\n";
  out += fmt::format("<p>{} points of {} from {} to {}; lines are predicted, dots simulated.</p>\n", series.points.size(), escape(series.parameter),
                     series.points.front().value, series.points.back().value);
  for (std::size_t m = 0; m < series.metrics.size(); ++m) out += chart(series, m);
  for (const std::string& note : series.breakpoints) out += "<p>" + escape(note) + "</p>\n";
  for (const std::string& note : series.resonances) out += "<p>" + escape(note) + "</p>\n";
  return out + "</section>\n";
}

}  // namespace cats::report::html
