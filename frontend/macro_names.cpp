// Which -D names the sources use as macros. "-D NAME=VALUE" both defines a macro and binds
// the free symbol NAME; defining a macro called like a parameter would rewrite the
// declaration itself ("int n" -> "int 100"), so a -D reaches the preprocessor only when the
// user's sources define NAME as a macro or test it in a conditional. See docs/decisions.md.
#include "frontend/frontend.hpp"

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <vector>

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

/* The preprocessor directives of "in", continuation lines joined and comments removed. */
static std::vector<std::string> directives(std::istream& in) {
  static const std::regex comment(R"(/\*.*?\*/|//.*$)");
  std::vector<std::string> out;
  std::string pending;
  for (std::string line; std::getline(in, line);) {
    bool continued = !line.empty() && line.back() == '\\';
    if (continued) line.pop_back();
    pending += line;
    if (continued) continue;
    std::size_t first = pending.find_first_not_of(" \t");
    if (first != std::string::npos && pending[first] == '#') out.push_back(std::regex_replace(pending, comment, " "));
    pending.clear();
  }
  return out;
}

std::set<std::string> namesUsedAsMacros(const std::vector<std::string>& candidates, const std::vector<std::string>& sources,
                                        const std::vector<std::string>& includeDirs) {
  std::set<std::string> used;
  if (candidates.empty()) return used;
  // The name a #define/#undef introduces, or any name a conditional tests; never the parameters
  // or body of a #define (#define SQUARE(n) ((n)*(n)) says nothing about a variable n).
  static const std::regex named(R"(^\s*#\s*(define|undef|ifdef|ifndef|elifdef|elifndef)\s+([A-Za-z_][A-Za-z0-9_]*))");
  static const std::regex tested(R"(^\s*#\s*(if|elif)\b(.*)$)");
  static const std::regex identifier(R"([A-Za-z_][A-Za-z0-9_]*)");
  std::set<std::string> wanted(candidates.begin(), candidates.end());
  for (const auto& file : userFiles(sources, includeDirs)) {
    std::ifstream in(file);
    for (const std::string& line : directives(in)) {
      std::smatch m;
      if (std::regex_search(line, m, named)) {
        if (wanted.count(m[2].str())) used.insert(m[2].str());
      } else if (std::regex_match(line, m, tested)) {
        std::string rest = m[2].str();
        for (auto it = std::sregex_iterator(rest.begin(), rest.end(), identifier); it != std::sregex_iterator(); ++it)
          if (wanted.count(it->str())) used.insert(it->str());
      }
    }
  }
  return used;
}

}  // namespace cats::frontend
