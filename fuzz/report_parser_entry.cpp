// The compiler report fuzz target: any text reads into ReportedDecisions without failing, the
// same way twice, and every decision keeps a line of the input as its text.
#include "entries.hpp"

#include "sim/compiler_report.hpp"

#include <cstdlib>
#include <string_view>

namespace cats::fuzz {

int reportParserOne(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  sim::ReportedDecisions first, second;
  sim::parseCompilerReport(text, first);
  sim::parseCompilerReport(text, second);
  if (first.loops.size() != second.loops.size() || first.calls.size() != second.calls.size()) std::abort();
  for (const auto& loop : first.loops)
    if (loop.text.empty() || text.find(loop.text) == std::string_view::npos || loop.vectorFactor < 0 || loop.interleave < 0) std::abort();
  for (const auto& call : first.calls)
    if (call.callee.empty() || text.find(call.text) == std::string_view::npos) std::abort();
  return 0;
}

}  // namespace cats::fuzz
