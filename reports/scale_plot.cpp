// The gnuplot input of a parameter sweep's plot (docs/scale-format.md): a whitespace-separated
// data file (one row per point, "?" for a missing value) and a script that reads it.
#include "reports/scale.hpp"

#include <fmt/format.h>

#include <cmath>

namespace cats::report {

namespace {

struct Curve {
  std::size_t group;
  std::size_t metric;
  bool simulated;
  std::string title;
};

/* A string as a gnuplot double-quoted literal. */
std::string gnuplotString(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

std::vector<Curve> curvesOf(const sim::ScaleSeries& s) {
  std::vector<Curve> curves;
  for (std::size_t m = 0; m < s.metrics.size(); ++m) {
    std::string metric(sim::toString(s.metrics[m]));
    for (std::size_t g = 0; g < s.groups.size(); ++g) {
      bool total = s.groups[g].kind == sim::ScaleGroupKind::Total;
      bool container = s.groups[g].kind == sim::ScaleGroupKind::Container && s.metrics.size() == 1;
      if (!total && !container) continue;
      std::string name = total ? metric + " (total)" : metric + " " + s.groups[g].name;
      curves.push_back({g, m, false, name + " predicted"});
      if (s.simulated) curves.push_back({g, m, true, name + " simulated"});
    }
  }
  return curves;
}

/* Whether the swept values grow geometrically: a logarithmic x axis shows them evenly. */
bool geometric(const sim::ScaleSeries& s) {
  if (s.points.size() < 3 || s.points.front().value <= 0) return false;
  double first = static_cast<double>(s.points[1].value) / static_cast<double>(s.points[0].value);
  double last = static_cast<double>(s.points.back().value) / static_cast<double>(s.points[s.points.size() - 2].value);
  return first > 1.5 && last > 1.5;
}

}  // namespace

GnuplotInput scaleGnuplot(const sim::ScaleSeries& s, const std::string& dataPath, const std::string& imagePath) {
  std::vector<Curve> curves = curvesOf(s);
  GnuplotInput in;
  double smallest = 0, largest = 0;
  for (const auto& p : s.points) {
    in.data += fmt::format("{}", p.value);
    for (const Curve& c : curves) {
      const sim::ScaleCell& cell = p.cells.at(c.group).at(c.metric);
      const std::optional<double>& v = c.simulated ? cell.simulated : cell.predicted;
      in.data += v ? fmt::format(" {:.17g}", *v) : std::string(" ?");
      if (v && *v > 0) {
        smallest = smallest == 0 ? *v : std::min(smallest, *v);
        largest = std::max(largest, *v);
      }
    }
    in.data += "\n";
  }
  bool svg = imagePath.size() >= 4 && imagePath.substr(imagePath.size() - 4) == ".svg";
  std::string& g = in.script;
  g += svg ? "set terminal svg size 900,560 dynamic background rgb 'white'\n" : "set terminal pngcairo size 900,560\n";
  g += "set output " + gnuplotString(imagePath) + "\n";
  g += "set datafile missing '?'\n";
  g += "set title " + gnuplotString("cats-static scale over " + s.parameter) + "\n";
  g += "set xlabel " + gnuplotString(s.parameter) + "\n";
  g += "set ylabel " + gnuplotString(s.metrics.size() == 1 ? std::string(sim::toString(s.metrics.front())) : "value") + "\n";
  g += "set termoption noenhanced\nset key left top\nset grid\n";
  if (geometric(s)) g += "set logscale x 2\n";
  if (smallest > 0 && largest / smallest > 1000) g += "set logscale y 10\n";
  if (curves.empty()) {
    g += "plot " + gnuplotString(dataPath) + " using 1:1 title 'no values' with points\n";
    return in;
  }
  g += "plot ";
  for (std::size_t c = 0; c < curves.size(); ++c) {
    if (c) g += ", \\\n     ";
    int color = static_cast<int>(c / (s.simulated ? 2 : 1)) + 1;
    g += fmt::format("{} using 1:{} title {} with {} linecolor {}", gnuplotString(dataPath), c + 2, gnuplotString(curves[c].title),
                     curves[c].simulated ? "points pointtype 7 pointsize 0.8" : "lines linewidth 2", color);
  }
  g += "\n";
  return in;
}

}  // namespace cats::report
