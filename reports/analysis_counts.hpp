// The counts section of the analysis report (private to reports/).
#pragma once

#include "tracer/poly_counts.hpp"

#include <nlohmann/json.hpp>

#include <string>

namespace cats::report {

std::string countsText(const trace::ProgramCounts& counts);
nlohmann::ordered_json countsJson(const trace::ProgramCounts& counts);

}  // namespace cats::report
