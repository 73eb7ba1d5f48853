// The frontend fuzz target: every stage a C snippet goes through in `analyze` and `simulate`,
// catching exactly the exceptions the driver turns into messages, so anything else is a crash.
#include "entries.hpp"

#include "cache/presets.hpp"
#include "frontend/frontend.hpp"
#include "reports/analysis.hpp"
#include "reports/simulation.hpp"
#include "sim/concretize.hpp"
#include "sim/simulate.hpp"
#include "sim/stream.hpp"
#include "tracer/poly_model.hpp"
#include "tracer/trace_json.hpp"
#include "tracer/tracer.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

namespace cats::fuzz {

namespace {

/// Value of every free parameter: small, so that loops over it stay short.
constexpr std::int64_t kParameterValue = 3;
/// Accesses a simulated snippet may make; above it the simulation is skipped (literal trip counts).
constexpr std::size_t kMaxAccesses = 1 << 14;

/* The C file the snippet is written to: one per process, in a fresh temporary directory. */
const std::string& snippetPath() {
  static const std::string path = [] {
    std::string pattern = (std::filesystem::temp_directory_path() / "cats-fuzz-XXXXXX").string();
    if (!mkdtemp(pattern.data())) std::abort();
    return pattern + "/snippet.c";
  }();
  return path;
}

/* Options the command line offers, chosen by the input's length so that mutations reach both. */
struct Variant {
  bool scalars = false;  // --scalars
  sim::RegisterModel model = sim::RegisterModel::O2;
};
Variant variantOf(std::size_t size) {
  return Variant{size % 2 == 1, size / 2 % 2 == 1 ? sim::RegisterModel::O0 : sim::RegisterModel::O2};
}

/* The trace of the C text "code", or nothing when the frontend or tracer rejects it. */
std::optional<trace::Trace> traceOf(const std::string& code, const Variant& variant) {
  {
    std::ofstream out(snippetPath(), std::ios::binary | std::ios::trunc);
    out << code;
  }
  frontend::Options options;
  options.paths = {snippetPath()};
  options.traceScalars = variant.scalars;
  sym::Context ctx;
  ir::Program program;
  try {
    program = frontend::buildProgram(options, ctx);
  } catch (const frontend::UsageError&) {
    return std::nullopt;
  } catch (const frontend::InputError&) {
    return std::nullopt;
  }
  if (program.functions.empty()) return std::nullopt;
  try {
    return trace::buildTrace(program, ctx, trace::TracerOptions{});
  } catch (const trace::EntryError&) {
    return std::nullopt;
  }
}

/* Every parameter of "trace" bound to kParameterValue. */
sim::ConcretizeOptions smallBindings(const trace::Trace& trace) {
  sim::ConcretizeOptions options;
  for (const auto& info : trace.context.symbols())
    if (info.kind == sym::SymbolKind::Parameter) options.bindings[info.name] = kParameterValue;
  return options;
}

/* Whether "program"'s stream ends within kMaxAccesses records. */
bool streamIsShort(const sim::Program& program, const sim::StreamOptions& options) {
  sim::AddressStream stream(program, options);
  std::vector<sim::Record> batch(1024);
  std::size_t total = 0;
  while (std::size_t n = stream.next(batch.data(), batch.size())) {
    total += n;
    if (total > kMaxAccesses) return false;
  }
  return true;
}

/* Concretises "trace" with small parameters and, if its stream is short, simulates and reports. */
void simulateSmall(const trace::Trace& trace, const Variant& variant) {
  sim::ConcretizeOptions options = smallBindings(trace);
  options.model = variant.model;
  sim::Program program;
  try {
    program = sim::concretize(trace, options);
  } catch (const sim::BindingError&) {
    return;
  }
  sim::StreamOptions stream;
  stream.branches = options.branches;
  stream.model = options.model;
  if (!streamIsShort(program, stream)) return;
  cache::HierarchyConfig config = cache::preset("cats-paper");
  sim::SimulationResult result = sim::simulate(program, trace.events.size(), config, stream);
  report::SimulationReportInput input{trace, result, config, options.model};
  (void)report::simulationText(input, report::GroupBy::Container);
  (void)report::simulationJson(input);
}

}  // namespace

int frontendOne(const std::uint8_t* data, std::size_t size) {
  Variant variant = variantOf(size);
  std::optional<trace::Trace> trace = traceOf(std::string(reinterpret_cast<const char*>(data), size), variant);
  if (!trace) return 0;
  (void)report::analysisText(*trace);
  (void)report::analysisJson(*trace);
  std::string json = trace::writeTraceJson(*trace);
  if (trace::writeTraceJson(trace::readTraceJson(json)) != json) std::abort();  // the trace file round-trips exactly
  (void)trace::dumpPolyModel(trace::buildPolyModel(*trace), *trace);
  simulateSmall(*trace, variant);
  return 0;
}

}  // namespace cats::fuzz
