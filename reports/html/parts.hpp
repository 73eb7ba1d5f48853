// The pieces of the HTML report: one function per section, and the small helpers they share.
#pragma once

#include "reports/html.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace cats::report::html {

/// Text made safe for HTML element content and attribute values.
std::string escape(std::string_view text);
/// 1234567 -> "1,234,567".
std::string number(std::uint64_t value);
/// Bytes with a binary unit: "512 B", "3.0 KiB", "1.5 MiB".
std::string bytes(double value);
/// A background colour from white (0) to deep red (1) for heat maps.
std::string heat(double fraction);
/// A coordinate for SVG, with at most two decimals and no trailing zeros.
std::string coord(double value);

/// Sections, each an <section id=...> with its heading; "warnings" collects what was capped.
std::string summarySection(const HtmlReportInput& in);
std::string timelineSection(const HtmlReportInput& in, std::vector<std::string>& warnings);
std::string statisticsSection(const HtmlReportInput& in);
std::string controlFlowSection(const HtmlReportInput& in);
std::string sourceSection(const HtmlReportInput& in, std::vector<std::string>& warnings);
std::string cacheSection(const HtmlReportInput& in);
std::string scalingSection(const sim::ScaleSeries& series);
std::string reviewSection(const std::vector<Finding>& findings);

}  // namespace cats::report::html
