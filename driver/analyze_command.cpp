#include "analyze_command.hpp"

#include "ir/dump.hpp"
#include "reports/analysis.hpp"
#include "tracer/expand.hpp"
#include "tracer/poly_counts.hpp"
#include "tracer/poly_model.hpp"
#include "tracer/trace_json.hpp"

namespace cats::driver {

// The line size of the default D1 (docs/cache-core.md): analyze takes no cache options.
constexpr std::int64_t kCountLineBytes = 64;

CLI::App* addAnalyzeCommand(CLI::App& app, AnalyzeArgs& args) {
  CLI::App* cmd = app.add_subcommand("analyze", "Classify every memory access of a C source tree (symbolic C.A.T.S. trace)");
  addSourceOptions(*cmd, args.sources);
  cmd->add_option("--format", args.format, "Report format")->check(CLI::IsMember({"text", "json"}))->capture_default_str();
  cmd->add_option("-o,--output", args.output, "Write the result to FILE instead of standard output");
  cmd->add_option("--dump", args.dump, "Print a stage instead of the report: ir (text), trace (the JSON trace file: function summaries) "
                  "or contexts (the same trace expanded into every calling context, as simulate reads it), "
                  "model (the polyhedral model of the contexts: statements, domains, schedule, non-affine accesses)")
      ->check(CLI::IsMember({"ir", "trace", "contexts", "model"}));
  cmd->add_flag("--counts", args.counts, "Add the count and footprint formulas (executions, bytes, distinct elements and 64-byte lines per "
                "access, statement, loop, function and container) to the report");
  return cmd;
}

/* The polyhedral model of "contexts" as text. */
static std::string modelText(const trace::Trace& contexts) { return trace::dumpPolyModel(trace::buildPolyModel(contexts), contexts); }

int runAnalyze(const AnalyzeArgs& args) {
  TraceOutcome traced = traceSources(args.sources, args.dump == "ir");
  if (args.dump == "ir" && traced.program) {
    int rc = emit(ir::dump(*traced.program), args.output);
    return rc ? rc : traced.exitCode;
  }
  if (!traced.trace) return traced.exitCode;
  std::optional<trace::ProgramCounts> counts;
  if (args.counts && !args.dump) {
    trace::Trace contexts = modelContexts(*traced.trace);
    counts = trace::deriveCounts(contexts, trace::buildPolyModel(contexts), kCountLineBytes);
  }
  const trace::ProgramCounts* withCounts = counts ? &*counts : nullptr;
  std::string text = args.dump == "trace"      ? trace::writeTraceJson(*traced.trace)
                     : args.dump == "contexts" ? trace::writeTraceJson(trace::expandContexts(*traced.trace))
                     : args.dump == "model"    ? modelText(modelContexts(*traced.trace))
                     : args.format == "json" ? report::analysisJson(*traced.trace, withCounts)
                                             : report::analysisText(*traced.trace, withCounts);
  int rc = emit(text, args.output);
  return rc ? rc : traced.exitCode;
}

}  // namespace cats::driver
