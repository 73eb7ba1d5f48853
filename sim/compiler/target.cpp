// The compiler target from the command line: which compiler, which -O level, which vector width.
#include "sim/compiler.hpp"

#include <sstream>

namespace cats::sim {

std::string_view toString(CompilerKind kind) { return kind == CompilerKind::Gcc ? "gcc" : "clang"; }

std::string_view toString(DecisionSource source) { return source == DecisionSource::Model ? "model" : "compiler report"; }

std::string_view toString(AccessDecision::Kind kind) {
  switch (kind) {
    case AccessDecision::Kind::Memory: return "memory";
    case AccessDecision::Kind::Merged: return "merged";
    case AccessDecision::Kind::Promoted: return "promoted";
    case AccessDecision::Kind::Reloaded: return "reloaded";
    case AccessDecision::Kind::Reused: return "reused";
    case AccessDecision::Kind::Sunk: return "sunk";
  }
  return "memory";
}

std::string CompilerTarget::label() const {
  std::string text = std::string(toString(compiler)) + " -O" + std::to_string(optLevel);
  if (march != "x86-64") text += " -march=" + march;
  if (fastMath) text += " -ffast-math";
  if (!inlining) text += " -fno-inline";
  if (!vectorize) text += compiler == CompilerKind::Gcc ? " -fno-tree-vectorize" : " -fno-vectorize";
  if (!distributePatterns) text += " -fno-tree-loop-distribute-patterns";
  if (!openmp) text += " -fno-openmp";
  return text;
}

namespace {

/* Vector register bytes for -march: AVX2 from x86-64-v3 (Haswell) on, and for native on the
   machines this tool targets; SSE2 otherwise. AVX-512 is not modelled (GCC and Clang prefer
   256-bit vectors on it by default). */
std::optional<int> vectorBytesOf(const std::string& march) {
  static const char* const kAvx2[] = {"x86-64-v3", "x86-64-v4", "native", "haswell", "broadwell", "skylake", "skylake-avx512",
                                      "icelake-client", "icelake-server", "tigerlake", "alderlake", "sapphirerapids",
                                      "znver1", "znver2", "znver3", "znver4"};
  static const char* const kSse[] = {"x86-64", "x86-64-v2", "core2", "nehalem", "westmere", "sandybridge", "ivybridge", "k8", "btver2"};
  for (const char* m : kAvx2)
    if (march == m) return 32;
  for (const char* m : kSse)
    if (march == m) return 16;
  return std::nullopt;
}

std::optional<std::string> applyLevel(CompilerTarget& t, const std::string& level) {
  if (level == "fast") {
    t.optLevel = 3;
    t.fastMath = true;
    return std::nullopt;
  }
  if (level.size() != 1 || level[0] < '0' || level[0] > '3') return "-O must be 0, 1, 2, 3 or fast, got '" + level + "'";
  t.optLevel = level[0] - '0';
  return std::nullopt;
}

std::optional<std::string> applyMarch(CompilerTarget& t, const std::string& march) {
  auto bytes = vectorBytesOf(march);
  if (!bytes) return "-march=" + march + " is not modelled (x86-64, x86-64-v2, x86-64-v3, x86-64-v4, native or an Intel/AMD core name)";
  t.march = march;
  t.vectorBytes = *bytes;
  return std::nullopt;
}

}  // namespace

std::variant<CompilerTarget, std::string> parseCompilerTarget(const std::string& compiler, const std::string& level,
                                                              const std::string& flags) {
  CompilerTarget t;
  if (compiler == "gcc") t.compiler = CompilerKind::Gcc;
  else if (compiler == "clang") t.compiler = CompilerKind::Clang;
  else return "--compiler must be gcc or clang, got '" + compiler + "'";
  std::istringstream words(flags);
  for (std::string flag; words >> flag;) {
    std::optional<std::string> error;
    if (flag.rfind("-O", 0) == 0) error = applyLevel(t, flag.substr(2).empty() ? "1" : flag.substr(2));
    else if (flag.rfind("-march=", 0) == 0) error = applyMarch(t, flag.substr(7));
    else if (flag == "-ffast-math") t.fastMath = true;
    else if (flag == "-fno-inline") t.inlining = false;
    else if (flag == "-fno-tree-vectorize" || flag == "-fno-vectorize") t.vectorize = false;
    else if (flag == "-fno-tree-loop-distribute-patterns") t.distributePatterns = false;
    else if (flag == "-fopenmp" || flag.rfind("-fopenmp=", 0) == 0) t.openmp = true;
    else if (flag == "-fno-openmp") t.openmp = false;
    else t.ignoredFlags.push_back(flag);
    if (error) return *error;
  }
  if (!level.empty())
    if (auto error = applyLevel(t, level)) return *error;
  return t;
}

}  // namespace cats::sim
