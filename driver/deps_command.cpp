#include "deps_command.hpp"

#include "reports/dependences.hpp"
#include "tracer/dependences.hpp"
#include "tracer/expand.hpp"
#include "tracer/poly_model.hpp"

#include <iostream>
#include <set>

namespace cats::driver {

CLI::App* addDepsCommand(CLI::App& app, DepsArgs& args) {
  CLI::App* cmd = app.add_subcommand("deps", "Data dependences: which loops are parallel, reductions or carried, "
                                             "interchange/tiling legality and fusion candidates");
  addSourceOptions(*cmd, args.sources);
  cmd->add_option("--format", args.format, "Report format")->check(CLI::IsMember({"text", "json", "dot"}))->capture_default_str();
  cmd->add_option("-o,--output", args.output, "Write the result to FILE instead of standard output");
  return cmd;
}

namespace {

/* Says, at each access the model leaves out, that the loops around it get no verdict. */
/* One warning per source place outside the model, the first kMaxWarnings of them: a whole
   project has thousands (zlib: 17,887 statement copies), the report lists them all. */
void warnUnknown(const trace::ProgramDependences& deps) {
  constexpr std::size_t kMaxWarnings = 20;
  std::set<std::string> seen;
  std::size_t places = 0;
  for (const auto& u : deps.unknown) {
    if (!seen.insert(u.loc.str()).second) continue;
    if (++places > kMaxWarnings) continue;
    std::cerr << ir::Diagnostic{ir::Severity::Warning, u.loc,
                                "dependences: '" + u.text + "' is not in the polyhedral model (" + u.reason +
                                    "); the loops around it are reported unknown and the result is approximate"}
                     .str()
              << "\n";
  }
  if (places > kMaxWarnings)
    std::cerr << "cats-static: warning: dependences: " << places - kMaxWarnings
              << " more source places are not in the polyhedral model (the report lists them)\n";
}

}  // namespace

DependenceAnalysis analyseDependences(SourceArgs sources, bool quiet) {
  sources.localScalars = true;
  sources.quiet = quiet;
  TraceOutcome traced = traceSources(sources);
  DependenceAnalysis out;
  out.exitCode = traced.exitCode;
  if (!traced.trace) return out;
  out.contexts = modelContexts(*traced.trace);
  out.dependences = trace::analyseDependences(*out.contexts, trace::buildPolyModel(*out.contexts));
  return out;
}

int runDeps(const DepsArgs& args) {
  DependenceAnalysis analysis = analyseDependences(args.sources, false);
  if (!analysis.contexts) return analysis.exitCode;
  const trace::ProgramDependences& deps = analysis.dependences;
  warnUnknown(deps);
  std::string text = args.format == "json" ? report::dependencesJson(deps)
                     : args.format == "dot" ? report::dependencesDot(deps)
                                            : report::dependencesText(deps);
  int rc = emit(text, args.output);
  return rc ? rc : analysis.exitCode;
}

}  // namespace cats::driver
