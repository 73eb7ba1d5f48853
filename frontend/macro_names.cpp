// Which -D names the sources use as macros. "-D NAME=VALUE" both defines a macro and binds
// the free symbol NAME; defining a macro called like a parameter would rewrite the
// declaration itself ("int n" -> "int 100"), so a -D reaches the preprocessor only when a
// preprocessor directive of the user's sources names it. See docs/decisions/defines.md.
#include "frontend/frontend.hpp"

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>

namespace cats::frontend {

namespace fs = std::filesystem;

/* The user's source and header files: the inputs, and .h files beside them or below -I dirs. */
static std::set<fs::path> userFiles(const std::vector<std::string>& sources, const std::vector<std::string>& includeDirs) {
  std::set<fs::path> files;
  std::set<fs::path> dirs;
  for (const auto& s : sources) {
    files.insert(s);
    dirs.insert(fs::path(s).parent_path());
  }
  for (const auto& d : includeDirs) dirs.insert(d);
  std::error_code ec;
  for (const auto& dir : dirs)
    for (auto it = fs::directory_iterator(dir.empty() ? "." : dir, ec); !ec && it != fs::directory_iterator(); it.increment(ec))
      if (it->path().extension() == ".h") files.insert(it->path());
  return files;
}

std::set<std::string> namesUsedAsMacros(const std::vector<std::string>& candidates, const std::vector<std::string>& sources,
                                        const std::vector<std::string>& includeDirs) {
  std::set<std::string> used;
  if (candidates.empty()) return used;
  static const std::regex directive(R"(^\s*#\s*(if|ifdef|ifndef|elif|define|undef)\b(.*)$)");
  static const std::regex identifier(R"([A-Za-z_][A-Za-z0-9_]*)");
  std::set<std::string> wanted(candidates.begin(), candidates.end());
  for (const auto& file : userFiles(sources, includeDirs)) {
    std::ifstream in(file);
    for (std::string line; std::getline(in, line);) {
      std::smatch m;
      if (!std::regex_match(line, m, directive)) continue;
      std::string rest = m[2].str();
      for (auto it = std::sregex_iterator(rest.begin(), rest.end(), identifier); it != std::sregex_iterator(); ++it)
        if (wanted.count(it->str())) used.insert(it->str());
    }
  }
  return used;
}

}  // namespace cats::frontend
