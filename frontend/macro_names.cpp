// Which -D names the sources use as macros. "-D NAME=VALUE" both defines a macro and binds
// the free symbol NAME; defining a macro called like a parameter would rewrite the
// declaration itself ("int n" -> "int 100"), so a -D reaches the preprocessor only when the
// user's sources define NAME as a macro or test it in a conditional. See docs/decisions.md.
#include "frontend/frontend.hpp"

#include <filesystem>
#include <fstream>
#include <cctype>
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

/* "line" with its comments replaced by a space each: a block comment closed on the line, or
   everything from "//" on, whichever starts first. */
static std::string withoutComments(const std::string& line) {
  std::string out;
  for (std::size_t i = 0; i < line.size();) {
    if (line.compare(i, 2, "/*") == 0) {
      std::size_t close = line.find("*/", i + 2);
      if (close != std::string::npos) {
        out += ' ';
        i = close + 2;
        continue;
      }
    } else if (line.compare(i, 2, "//") == 0) {
      out += ' ';
      break;
    }
    out += line[i++];
  }
  return out;
}

/* The preprocessor directives of "in", continuation lines joined and comments removed. */
static std::vector<std::string> directives(std::istream& in) {
  std::vector<std::string> out;
  std::string pending;
  for (std::string line; std::getline(in, line);) {
    bool continued = !line.empty() && line.back() == '\\';
    if (continued) line.pop_back();
    pending += line;
    if (continued) continue;
    std::size_t first = pending.find_first_not_of(" \t");
    if (first != std::string::npos && pending[first] == '#') out.push_back(withoutComments(pending));
    pending.clear();
  }
  return out;
}

static bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'; }
static bool startsIdentifier(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
static bool continuesIdentifier(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

/* The identifier at "at" (empty if none starts there). */
static std::string identifierAt(const std::string& line, std::size_t at) {
  if (at >= line.size() || !startsIdentifier(line[at])) return {};
  std::size_t end = at;
  while (end < line.size() && continuesIdentifier(line[end])) ++end;
  return line.substr(at, end - at);
}

std::set<std::string> namesUsedAsMacros(const std::vector<std::string>& candidates, const std::vector<std::string>& sources,
                                        const std::vector<std::string>& includeDirs) {
  std::set<std::string> used;
  if (candidates.empty()) return used;
  // The name a #define/#undef introduces, or any name a conditional tests; never the parameters
  // or body of a #define (#define SQUARE(n) ((n)*(n)) says nothing about a variable n).
  static const std::set<std::string> naming{"define", "undef", "ifdef", "ifndef", "elifdef", "elifndef"};
  std::set<std::string> wanted(candidates.begin(), candidates.end());
  for (const auto& file : userFiles(sources, includeDirs)) {
    std::ifstream in(file);
    for (const std::string& line : directives(in)) {
      std::size_t p = 0;
      while (p < line.size() && isSpace(line[p])) ++p;
      if (p >= line.size() || line[p] != '#') continue;
      ++p;
      while (p < line.size() && isSpace(line[p])) ++p;
      const std::string keyword = identifierAt(line, p);
      p += keyword.size();
      if (naming.count(keyword)) {
        std::size_t name = p;
        while (name < line.size() && isSpace(line[name])) ++name;
        if (name == p) continue;  // "#define" needs a space before its name
        std::string named = identifierAt(line, name);
        if (!named.empty() && wanted.count(named)) used.insert(named);
      } else if (keyword == "if" || keyword == "elif") {
        for (std::size_t k = p; k < line.size();) {
          if (!startsIdentifier(line[k])) {
            ++k;
            continue;
          }
          std::string name = identifierAt(line, k);
          if (wanted.count(name)) used.insert(name);
          k += name.size();
        }
      }
    }
  }
  return used;
}

}  // namespace cats::frontend
