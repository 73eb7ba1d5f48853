// The report of `cats-static scale`: per point of a parameter sweep, the predicted and simulated
// value of each metric per group, as a text table, versioned JSON ("format":
// "cats-static-scale", "version": 1), CSV (one row per point, group and metric) or a gnuplot
// plot (docs/scale-format.md).
#pragma once

#include "sim/scale.hpp"

#include <string>

namespace cats::report {

inline constexpr int kScaleFormatVersion = 1;

std::string scaleText(const sim::ScaleSeries& series);
std::string scaleJson(const sim::ScaleSeries& series);
/// Header "parameter,value,group,name,metric,predicted,simulated,method,approximate,note";
/// empty cells for missing values.
std::string scaleCsv(const sim::ScaleSeries& series);

/// A gnuplot data file and the script that plots it into "imagePath" (.svg or .png by its
/// extension): the total of every metric against the parameter, predicted as lines, simulated
/// as points, and each container's predicted curve when one metric is swept.
struct GnuplotInput {
  std::string data;
  std::string script;
};
GnuplotInput scaleGnuplot(const sim::ScaleSeries& series, const std::string& dataPath, const std::string& imagePath);

}  // namespace cats::report
