#include "support.hpp"

#include <catch2/catch.hpp>

#include <sys/wait.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace cats::test {

namespace fs = std::filesystem;

std::string sourcePath(const std::string& relative) { return std::string(CATS_SOURCE_DIR) + "/" + relative; }

static frontend::Options frontendOptions(const std::vector<std::string>& paths, const AnalyzeOptions& options) {
  frontend::Options o;
  o.paths = paths;
  o.traceScalars = options.scalars;
  o.traceLocalScalars = options.localScalars;
  for (const auto& [name, value] : options.defines) {
    std::optional<std::int64_t> number;
    try {
      number = std::stoll(value, nullptr, 0);
    } catch (const std::exception&) {
    }
    o.defines.push_back({name, value, number});
  }
  return o;
}

/* Frontend over "paths"; "tracer" makes the trace. */
template <typename Tracer>
static trace::Trace traceOf(const std::vector<std::string>& paths, const AnalyzeOptions& options, Tracer tracer) {
  sym::Context ctx;
  std::vector<std::string> full;
  for (const auto& p : paths) full.push_back(fs::path(p).is_absolute() ? p : sourcePath(p));
  ir::Program program = frontend::buildProgram(frontendOptions(full, options), ctx);
  trace::TracerOptions t;
  t.entries = options.entries;
  t.bindings = options.defines;
  return tracer(program, ctx, t);
}

trace::Trace analyze(const std::vector<std::string>& paths, const AnalyzeOptions& options) {
  return traceOf(paths, options, trace::buildTrace);
}

trace::Trace analyzeSummaries(const std::vector<std::string>& paths, const AnalyzeOptions& options) {
  return traceOf(paths, options, trace::buildSummaries);
}

std::string tempDir() {
  static std::atomic<int> counter{0};
  fs::path dir = fs::temp_directory_path() / ("cats-test-" + std::to_string(getpid()) + "-" + std::to_string(counter++));
  fs::remove_all(dir);  // left by an earlier process with the same pid: its files would join a directory analysis
  fs::create_directories(dir);
  return dir.string();
}

std::string writeFile(const std::string& dir, const std::string& name, const std::string& content) {
  fs::path path = fs::path(dir) / name;
  fs::create_directories(path.parent_path());
  std::ofstream(path) << content;
  return path.string();
}

std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

trace::Trace analyzeSource(const std::string& code, const AnalyzeOptions& options) {
  return analyze({writeFile(tempDir(), "input.c", code)}, options);
}

ir::Program lowerSource(const std::string& code, sym::Context& ctx) {
  return frontend::buildProgram(frontendOptions({writeFile(tempDir(), "input.c", code)}, {}), ctx);
}

CliResult runCli(const std::string& args, const std::string& environment) {
  std::string dir = tempDir();
  std::string out = dir + "/stdout", err = dir + "/stderr";
  std::string command = "cd '" + std::string(CATS_SOURCE_DIR) + "' && " + environment + " '" + CATS_STATIC_BINARY + "' " + args + " >'" +
                        out + "' 2>'" + err + "'";
  int status = std::system(command.c_str());
  CliResult r;
  r.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = readFile(out);
  r.err = readFile(err);
  return r;
}

std::vector<std::string> accessLines(const trace::Trace& t) {
  std::vector<std::string> lines;
  for (const auto& e : t.events) {
    if (e.kind != trace::EventKind::Access) continue;
    const auto& c = e.classification;
    std::string line = t.functionOf(e.scope) + " " + std::to_string(e.loc.line) + ":" + std::to_string(e.loc.column) + " " +
                       std::string(ir::toString(e.mode)) + " " + e.text + " -> " + t.containers.at(e.container).name + " " +
                       std::string(trace::toString(c.kind));
    if (c.strideBytes) line += " stride=" + sym::print(*c.strideBytes);
    for (const auto& v : c.indirectVia) line += " via=" + v;
    if (c.invariantInInnermostLoop) line += " invariant";
    if (c.approximate) line += " approximate";
    if (e.loopHeader) line += " header";
    lines.push_back(line);
  }
  return lines;
}

const trace::Event& findAccess(const trace::Trace& t, const std::string& text, ir::AccessMode mode, const std::string& function) {
  for (const auto& e : t.events)
    if (e.kind == trace::EventKind::Access && e.text == text && e.mode == mode && (function.empty() || t.functionOf(e.scope) == function))
      return e;
  FAIL("no " << ir::toString(mode) << " access '" << text << "' in " << (function.empty() ? "the trace" : function));
  throw std::logic_error("unreachable");
}

}  // namespace cats::test
