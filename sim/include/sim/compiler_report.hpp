// The compiler's own optimisation reports (--compile-cmd, docs/register-model.md "Asking the
// compiler"): which flags make GCC 12 and Clang 14 print them, how their lines read into
// ReportedDecisions, and how those override the model's decisions in a CompilationPlan.
#pragma once

#include "sim/compiler.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace cats::sim {

/// Flags that make "kind" print which loops it vectorised and which calls it inlined (and which
/// not), one remark per line on stderr, without source excerpts or colour.
std::vector<std::string> reportFlags(CompilerKind kind);

/// Reads the report lines of GCC (-fopt-info) and Clang (-R remarks) in "text" into "into": one
/// ReportedLoop per loop line, one ReportedCall per inlining line, in text order; every other
/// line is skipped. "text" is untrusted (any bytes): nothing in it can make this fail.
void parseCompilerReport(std::string_view text, ReportedDecisions& into);

/// What taking the reports into a plan did, for the notes and the tests.
struct ReportUse {
  std::size_t loopsFromReport = 0, loopsFromModel = 0;  // distinct source loops of the contexts trace
  std::size_t callsFromReport = 0, callsFromModel = 0;  // distinct call sites
  std::size_t unmatchedLoops = 0, unmatchedCalls = 0;    // reported positions no scope has
};

/// Overrides the decisions of "plan" (built by the model for "contexts") with what "reported"
/// says about the same source positions: loops by file, line and column (the last loop on the
/// line starting at or before the reported column), calls by file, line and callee.
ReportUse applyReportedDecisions(const trace::Trace& contexts, const ReportedDecisions& reported, CompilationPlan& plan);

}  // namespace cats::sim
