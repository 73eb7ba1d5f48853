#include "sweep.hpp"

#include "values.hpp"

#include <algorithm>
#include <cmath>
#include <regex>

namespace cats::driver {

namespace {

constexpr std::int64_t kMaxPoints = 1000;
constexpr std::int64_t kDefaultPoints = 10;

/* "text" with every whole-word occurrence of "name" replaced by "(value)". */
std::string substitute(const std::string& text, const std::string& name, std::int64_t value) {
  std::regex word("\\b" + name + "\\b");
  return std::regex_replace(text, word, "(" + std::to_string(value) + ")");
}

bool mentions(const std::string& text, const std::string& name) { return std::regex_search(text, std::regex("\\b" + name + "\\b")); }

/* "count" values spread evenly over [lo, hi], rounded, without repeats. */
std::vector<std::int64_t> spread(std::int64_t lo, std::int64_t hi, std::int64_t count) {
  std::vector<std::int64_t> values;
  for (std::int64_t i = 0; i < count; ++i) {
    long double t = count == 1 ? 0 : static_cast<long double>(i) / static_cast<long double>(count - 1);
    values.push_back(lo + static_cast<std::int64_t>(std::llround(t * static_cast<long double>(hi - lo))));
  }
  values.erase(std::unique(values.begin(), values.end()), values.end());
  return values;
}

struct Range {
  std::int64_t lo, hi;
  std::string stepText;  // after ':', empty when none
};

/* "LO..HI[:STEP]" of "name"; a message when malformed. */
std::variant<Range, std::string> parseRange(const std::string& name, const std::string& text) {
  auto dots = text.find("..");
  std::string hiPart = text.substr(dots + 2), stepText;
  if (auto colon = hiPart.find(':'); colon != std::string::npos) {
    stepText = hiPart.substr(colon + 1);
    hiPart = hiPart.substr(0, colon);
  }
  std::string where = "-D " + name + "=" + text + ": ";
  auto lo = parseInteger(text.substr(0, dots));
  if (hiPart.empty() || text.substr(0, dots).empty()) return where + "the range is unbounded; give both ends (LO..HI)";
  auto hi = parseInteger(hiPart);
  if (!lo || !hi) return where + "the ends of the range must be integers (LO..HI)";
  if (*lo < 0 || *hi < 0) return where + "a swept size cannot be negative";
  if (*lo > *hi) return where + "the range is empty (" + std::to_string(*lo) + " > " + std::to_string(*hi) + "); write LO..HI with LO <= HI";
  return Range{*lo, *hi, stepText};
}

/* The values of "r" by its step (":xFACTOR" or ":+STEP"); a message when the step is bad. */
std::variant<std::vector<std::int64_t>, std::string> stepValues(const std::string& name, const Range& r) {
  std::string where = "-D " + name + "=..:" + r.stepText + ": ";
  std::vector<std::int64_t> values;
  if (r.stepText[0] == 'x') {
    double factor = 0;
    try {
      std::size_t used = 0;
      factor = std::stod(r.stepText.substr(1), &used);
      if (used + 1 != r.stepText.size()) throw std::invalid_argument("trailing");
    } catch (const std::exception&) {
      return where + "a factor is written xFACTOR, e.g. x2 or x1.5";
    }
    if (!(factor > 1.0) || !std::isfinite(factor)) return where + "the factor must be greater than 1";
    for (std::int64_t v = r.lo; v <= r.hi; v = std::max<std::int64_t>(v + 1, std::llround(static_cast<double>(v) * factor))) {
      values.push_back(v);
      if (static_cast<std::int64_t>(values.size()) > kMaxPoints) break;
    }
  } else if (r.stepText[0] == '+') {
    auto step = parseInteger(r.stepText.substr(1));
    if (!step || *step <= 0) return where + "a step is written +STEP with STEP a positive integer";
    if ((r.hi - r.lo) / *step >= kMaxPoints) return where + "more than " + std::to_string(kMaxPoints) + " points; use a larger step";
    for (std::int64_t v = r.lo; v <= r.hi; v += *step) values.push_back(v);
  } else {
    return where + "the step is :xFACTOR or :+STEP";
  }
  if (static_cast<std::int64_t>(values.size()) > kMaxPoints) return where + "more than " + std::to_string(kMaxPoints) + " points";
  return values;
}

}  // namespace

std::optional<std::int64_t> evaluateDerived(const std::string& expression, const std::string& name, std::int64_t value) {
  return parseInteger(substitute(expression, name, value));
}

std::variant<SweepPlan, std::string> planSweep(const std::vector<std::string>& defines, std::optional<std::int64_t> points) {
  SweepPlan plan;
  std::vector<std::pair<std::string, std::string>> rest;
  static const std::regex assignment("([A-Za-z_][A-Za-z0-9_]*)=(.*)");
  for (const auto& text : defines) {
    std::smatch m;
    if (std::regex_match(text, m, assignment) && m[2].str().find("..") != std::string::npos) {
      if (!plan.name.empty()) return "scale sweeps one parameter; both " + plan.name + " and " + m[1].str() + " have a range";
      auto range = parseRange(m[1], m[2]);
      if (auto* problem = std::get_if<std::string>(&range)) return *problem;
      const Range& r = std::get<Range>(range);
      plan.name = m[1];
      plan.lo = r.lo;
      plan.hi = r.hi;
      if (!r.stepText.empty() && points) return "-D " + text + ": give a step or --points, not both";
      if (points && (*points < 1 || *points > kMaxPoints)) return "--points must be between 1 and " + std::to_string(kMaxPoints);
      if (r.stepText.empty()) {
        plan.values = spread(r.lo, r.hi, points.value_or(kDefaultPoints));
        continue;
      }
      auto values = stepValues(plan.name, r);
      if (auto* problem = std::get_if<std::string>(&values)) return *problem;
      plan.values = std::get<std::vector<std::int64_t>>(values);
    } else {
      auto eq = text.find('=');
      rest.emplace_back(text, eq == std::string::npos ? std::string() : text.substr(eq + 1));
    }
  }
  if (plan.name.empty()) return "scale needs the parameter to sweep: -D NAME=LO..HI[:xFACTOR|:+STEP]";
  for (const auto& [text, value] : rest) {
    std::string name = text.substr(0, text.find('='));
    if (name == plan.name) return "-D " + text + ": " + plan.name + " is the swept parameter";
    if (!value.empty() && !parseInteger(value) && mentions(value, plan.name)) {
      if (!evaluateDerived(value, plan.name, plan.lo)) return "-D " + text + ": not an integer expression of " + plan.name + " (e.g. " + name + "=" + plan.name + "+1)";
      plan.derived[name] = value;
    } else {
      plan.otherDefines.push_back(text);
    }
  }
  return plan;
}

}  // namespace cats::driver
