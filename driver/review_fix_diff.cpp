#include "review_fix_diff.hpp"

#include "frontend/rewrite.hpp"
#include "reports/unified_diff.hpp"

#include <fmt/format.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>

namespace cats::driver {

namespace {

namespace fs = std::filesystem;

/// How far the confirmed misses may be from the predicted ones before a warning (a fraction).
constexpr double kConfirmationTolerance = 0.10;

std::string place(const report::Finding& f) { return fmt::format("{}:{}: {} in {}()", f.file, f.line, f.kind, f.function); }

/* Why "f" gets no patch whatever its source says ("" when it may get one). */
std::string unpatchable(const report::Finding& f) {
  if (f.predicted.empty()) return "not evaluated";
  if (f.recommendation.empty()) return f.legal == false ? "not recommended: the transformation is illegal" : "not recommended: legality unknown";
  if (!f.fix) return "no simple patch for this kind of finding";
  return "";
}

frontend::SourceRewrite rewriteOf(const report::SourceFix& fix) {
  switch (fix.kind) {
    case report::SourceFix::Kind::SwapLoopHeaders: return frontend::LoopHeaderSwap{fix.first, fix.second};
    case report::SourceFix::Kind::GrowLastDimension: return frontend::LastDimensionGrowth{fix.first, fix.elements};
  }
  return frontend::LoopHeaderSwap{fix.first, fix.second};
}

/* The text of "path", or none when it cannot be read. */
std::optional<std::string> readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

/// The program's sources copied into a fresh temporary directory under their displayed paths,
/// one of them patched; the directory is removed with the object.
class PatchedCopy {
 public:
  PatchedCopy(const std::vector<std::string>& sources, const frontend::RewrittenSource& patched) {
    std::string pattern = (fs::temp_directory_path() / "cats-static-fix-XXXXXX").string();
    if (!mkdtemp(pattern.data())) {
      error = "cannot create a temporary directory";
      return;
    }
    dir_ = pattern;
    for (const std::string& source : sources) {
      std::string shown = frontend::displayPath(source);
      std::optional<std::string> text = shown == patched.file ? patched.rewritten : readFile(source);
      fs::path copy = dir_ / fs::path(shown).relative_path();
      std::error_code ec;
      fs::create_directories(copy.parent_path(), ec);
      std::ofstream out(copy, std::ios::binary);
      if (!text || !(out << *text)) {
        error = "cannot copy " + shown + " to " + dir_.string();
        return;
      }
      paths.push_back(copy.string());
      originalDirs.push_back(fs::absolute(source).parent_path().string());
    }
  }
  PatchedCopy(const PatchedCopy&) = delete;
  PatchedCopy& operator=(const PatchedCopy&) = delete;
  ~PatchedCopy() {
    std::error_code ec;
    if (!dir_.empty()) fs::remove_all(dir_, ec);
  }

  std::vector<std::string> paths;         // the copies, in the order of the sources
  std::vector<std::string> originalDirs;  // where each source was: its quoted includes are found there
  std::string error;

 private:
  fs::path dir_;
};

/* D1 misses of the program with "patched" in place of its file, simulated with args' options; none when it fails. */
std::optional<std::uint64_t> confirmedMisses(const ReviewArgs& args, const std::vector<cache::HierarchyConfig>& configs,
                                             const frontend::RewrittenSource& patched, std::string& error) {
  PatchedCopy copy(frontend::collectSources(args.simulation.sources.paths), patched);
  if (!copy.error.empty()) {
    error = copy.error;
    return std::nullopt;
  }
  SimulateArgs again = args.simulation;
  again.sources.paths = copy.paths;
  again.sources.includeDirs.insert(again.sources.includeDirs.end(), copy.originalDirs.begin(), copy.originalDirs.end());
  again.sources.quiet = true;
  SimulationRun run = simulateSources(again, configs);
  if (run.results.empty() || run.results.front().totals.empty()) {
    error = "the patched sources do not simulate";
    return std::nullopt;
  }
  return run.results.front().totals.front().misses();
}

/* The lines before the diff (patch and git apply skip them) saying what it fixes and what the re-analysis confirmed. */
std::string header(const report::Finding& f, std::uint64_t confirmed, bool agrees) {
  const report::PredictedMisses& p = f.predicted.front();
  std::string out = fmt::format("cats-static review --fix-diff: {}\n{}\n", place(f), f.recommendation);
  out += fmt::format("confirmed: {} misses (predicted {}) in {}, {} before the fix\n", confirmed, p.after, p.level, p.before);
  if (!agrees) out += fmt::format("warning: the confirmed misses differ from the prediction by more than {:.0f} %\n", kConfirmationTolerance * 100);
  return out;
}

}  // namespace

FixDiffOutcome fixDiff(const ReviewArgs& args, const std::vector<cache::HierarchyConfig>& configs, const std::vector<report::Finding>& findings) {
  const frontend::Options options = frontendOptions(args.simulation.sources);
  const report::Finding* chosen = nullptr;
  frontend::RewrittenSource patched;
  for (const report::Finding& f : findings) {
    if (args.fixKind && f.kind != *args.fixKind) continue;
    if (std::string why = unpatchable(f); !why.empty()) {
      std::cerr << "review: no patch for " << place(f) << ": " << why << "\n";
    } else if (chosen) {
      std::cerr << "review: " << place(f) << ": not in this diff (one fix per diff: review the patched sources again)\n";
    } else if (frontend::RewrittenSource r = frontend::rewriteSource(options, rewriteOf(*f.fix)); !r.reason.empty()) {
      std::cerr << "review: no patch for " << place(f) << ": " << r.reason << "\n";
    } else {
      chosen = &f;
      patched = std::move(r);
    }
  }
  if (!chosen) {
    std::cerr << "review: no finding with a simple patch: the diff is empty\n";
    return {};
  }
  std::string error;
  std::optional<std::uint64_t> confirmed = confirmedMisses(args, configs, patched, error);
  if (!confirmed) {
    std::cerr << "cats-static: error: " << place(*chosen) << ": " << error << "; no diff written\n";
    return {"", 1};
  }
  const std::uint64_t predicted = chosen->predicted.front().after;
  const double off = predicted ? std::abs(static_cast<double>(*confirmed) - static_cast<double>(predicted)) / static_cast<double>(predicted) : 0.0;
  const bool agrees = predicted ? off <= kConfirmationTolerance : *confirmed == 0;
  std::cerr << "review: " << place(*chosen) << ": confirmed: " << *confirmed << " misses (predicted " << predicted << ")\n";
  if (!agrees)
    std::cerr << fmt::format("review: warning: the patched sources' misses differ from the prediction by more than {:.0f} %\n",
                             kConfirmationTolerance * 100);
  return {header(*chosen, *confirmed, agrees) + report::unifiedDiff(patched.file, patched.original, patched.rewritten), 0};
}

}  // namespace cats::driver
