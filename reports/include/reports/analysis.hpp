// The analysis report of `cats-static analyze`: people read the text form, tools read the
// JSON form ("format": "cats-static-analysis", "version": 3). With counts (`analyze --counts`),
// both end with the count and footprint formulas.
#pragma once

#include "tracer/poly_counts.hpp"
#include "tracer/trace.hpp"

#include <array>
#include <map>
#include <string>

namespace cats::report {

inline constexpr int kAnalysisFormatVersion = 3;

/// Access events per class; indices follow trace::AccessClass.
struct ClassHistogram {
  std::array<std::size_t, 4> counts{};
  void add(trace::AccessClass c) { ++counts[static_cast<std::size_t>(c)]; }
  std::size_t total() const { return counts[0] + counts[1] + counts[2] + counts[3]; }
};

struct Histograms {
  ClassHistogram program;
  std::map<std::string, ClassHistogram> byContainer;
  std::map<std::string, ClassHistogram> byFunction;
};

Histograms histograms(const trace::Trace& trace);

std::string analysisText(const trace::Trace& trace, const trace::ProgramCounts* counts = nullptr);
std::string analysisJson(const trace::Trace& trace, const trace::ProgramCounts* counts = nullptr);

}  // namespace cats::report
