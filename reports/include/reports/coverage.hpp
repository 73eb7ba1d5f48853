// Coverage at a glance: per function and in total, how many source accesses the analysis
// describes exactly and why the others are approximate (the top reasons, in words).
#pragma once

#include "tracer/trace.hpp"

#include <cstddef>
#include <map>
#include <string>
#include <vector>

namespace cats::report {

/// One reason that makes accesses approximate, with how many source accesses it touches.
struct CoverageReason {
  std::string text;  // "n changes in the loop", "trip count unknown: while loop", ...
  std::size_t accesses = 0;
  ir::SourceLoc example;  // the first access it touches, to point the user somewhere
};

struct CoverageCounts {
  std::size_t accesses = 0;       // distinct source accesses (one per source location, mode and text)
  std::size_t exact = 0;          // offset and execution count followed completely
  std::size_t approximate = 0;    // something the analysis could not follow
  std::size_t dataDependent = 0;  // exact, but the address depends on loaded values (indirect)
  std::vector<CoverageReason> reasons;  // most accesses first, then by text

  double exactShare() const { return accesses ? static_cast<double>(exact) / static_cast<double>(accesses) : 1.0; }
};

struct Coverage {
  CoverageCounts program;
  std::map<std::string, CoverageCounts> byFunction;
};

/// Why one access event is approximate (empty when it is exact), in the trace's own terms.
std::vector<std::string> approximationReasons(const trace::Trace& trace, const trace::Event& access);

Coverage coverage(const trace::Trace& trace);

/// The text section ("Coverage") and its JSON form, shared by the analysis reports.
std::string coverageText(const Coverage& coverage, std::size_t topReasons = 5);

}  // namespace cats::report
