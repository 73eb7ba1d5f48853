// Text, JSON and CSV of a parameter sweep (docs/scale-format.md).
#include "reports/scale.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cmath>

namespace cats::report {

using nlohmann::ordered_json;

namespace {

/* A value as a person reads it: integers without a fraction, others with six digits. */
std::string number(double v) {
  if (std::isfinite(v) && std::fabs(v) < 9e15 && v == std::floor(v)) return fmt::format("{}", static_cast<std::int64_t>(v));
  return fmt::format("{:.6g}", v);
}

std::string cellText(const std::optional<double>& v) { return v ? number(*v) : "-"; }

/* A CSV field, quoted when it holds a separator, a quote or a line break. */
std::string csvField(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

/* Footnote marks of a cell: * approximate, c counted per point. */
std::string marks(const sim::ScaleCell& c) {
  std::string m;
  if (c.method == "counted") m += "c";
  if (c.approximate) m += "*";
  return m;
}

/* One line per sentence, the first kShownSentences of them; the rest are in JSON and CSV. */
std::string sentences(const std::vector<std::string>& list) {
  constexpr std::size_t kShownSentences = 12;
  if (list.empty()) return "  none found\n";
  std::string out;
  for (std::size_t i = 0; i < list.size() && i < kShownSentences; ++i) out += "  " + list[i] + "\n";
  if (list.size() > kShownSentences) out += fmt::format("  ... and {} more (--format json lists them all)\n", list.size() - kShownSentences);
  return out;
}

}  // namespace

std::string scaleText(const sim::ScaleSeries& s) {
  std::string out;
  out += fmt::format("Scaling over {} ({} points{})\n", s.parameter, s.points.size(),
                     s.simulated ? ", simulated as compiled by " + s.model : "");
  for (std::size_t m = 0; m < s.metrics.size(); ++m) {
    out += fmt::format("\n{}  (predicted{})\n", sim::toString(s.metrics[m]), s.simulated ? " / simulated" : "");
    std::vector<std::size_t> shown;
    for (std::size_t g = 0; g < s.groups.size(); ++g)
      if (s.groups[g].kind == sim::ScaleGroupKind::Total || s.groups[g].kind == sim::ScaleGroupKind::Container) shown.push_back(g);
    const std::size_t width = s.simulated ? 27 : 15;
    out += fmt::format("  {:>10}", s.parameter);
    for (std::size_t g : shown) {
      std::string name = s.groups[g].kind == sim::ScaleGroupKind::Total ? "total" : s.groups[g].name;
      if (name.size() > width) name = name.substr(0, width - 1) + "~";
      out += fmt::format(" {:>{}}", name, width);
    }
    out += "\n";
    for (const auto& p : s.points) {
      out += fmt::format("  {:>10}", p.value);
      for (std::size_t g : shown) {
        const sim::ScaleCell& c = p.cells.at(g).at(m);
        std::string text = cellText(c.predicted) + marks(c);
        if (s.simulated) text += " / " + cellText(c.simulated);
        out += fmt::format(" {:>{}}", text, width);
      }
      out += "\n";
    }
  }
  bool counted = false, approximate = false;
  for (const auto& p : s.points)
    for (const auto& row : p.cells)
      for (const auto& c : row) {
        counted = counted || c.method == "counted";
        approximate = approximate || c.approximate;
      }
  if (counted || approximate) out += "\n";
  if (counted) out += "  c: counted on the O0 address stream of the point (no formula for it)\n";
  if (approximate) out += "  *: approximate (data-dependent or not followed exactly)\n";
  out += "\nBreakpoints\n" + sentences(s.breakpoints);
  out += "\nResonance sizes\n" + sentences(s.resonances);
  if (!s.notes.empty()) {
    out += "\nNotes\n";
    for (const auto& n : s.notes) out += "  " + n + "\n";
  }
  return out;
}

std::string scaleJson(const sim::ScaleSeries& s) {
  ordered_json root;
  root["format"] = "cats-static-scale";
  root["version"] = kScaleFormatVersion;
  root["parameter"] = s.parameter;
  root["simulated"] = s.simulated;
  root["model"] = s.model;
  root["metrics"] = ordered_json::array();
  for (auto m : s.metrics) root["metrics"].push_back(std::string(sim::toString(m)));
  root["points"] = ordered_json::array();
  for (const auto& p : s.points) root["points"].push_back(ordered_json{{"value", p.value}, {"bound", p.bound}});
  root["groups"] = ordered_json::array();
  for (std::size_t g = 0; g < s.groups.size(); ++g) {
    ordered_json group{{"group", std::string(sim::toString(s.groups[g].kind))}, {"name", s.groups[g].name}};
    for (std::size_t m = 0; m < s.metrics.size(); ++m) {
      ordered_json values = ordered_json::array();
      for (const auto& p : s.points) {
        const sim::ScaleCell& c = p.cells.at(g).at(m);
        ordered_json cell;
        cell["predicted"] = c.predicted ? ordered_json(*c.predicted) : ordered_json(nullptr);
        cell["simulated"] = c.simulated ? ordered_json(*c.simulated) : ordered_json(nullptr);
        cell["method"] = c.method;
        cell["approximate"] = c.approximate;
        if (!c.note.empty()) cell["note"] = c.note;
        values.push_back(std::move(cell));
      }
      group["values"][std::string(sim::toString(s.metrics[m]))] = std::move(values);
    }
    root["groups"].push_back(std::move(group));
  }
  root["breakpoints"] = s.breakpoints;
  root["resonances"] = s.resonances;
  root["notes"] = s.notes;
  return root.dump(2, ' ', false, ordered_json::error_handler_t::replace) + "\n";  // source text need not be UTF-8
}

std::string scaleCsv(const sim::ScaleSeries& s) {
  std::string out = "parameter,value,group,name,metric,predicted,simulated,method,approximate,note\n";
  for (const auto& p : s.points)
    for (std::size_t g = 0; g < s.groups.size(); ++g)
      for (std::size_t m = 0; m < s.metrics.size(); ++m) {
        const sim::ScaleCell& c = p.cells.at(g).at(m);
        out += fmt::format("{},{},{},{},{},{},{},{},{},{}\n", csvField(s.parameter), p.value, sim::toString(s.groups[g].kind),
                           csvField(s.groups[g].name), sim::toString(s.metrics[m]), c.predicted ? number(*c.predicted) : "",
                           c.simulated ? number(*c.simulated) : "", c.method, c.approximate ? "true" : "false", csvField(c.note));
      }
  return out;
}

}  // namespace cats::report
