// A tree of several programs (examples/, a directory of test drivers) split into programs, so that
// a command that needs one program (review) can run on each.
#include "frontend/frontend.hpp"

#include <filesystem>
#include <map>
#include <set>

namespace cats::frontend {

namespace {

namespace fs = std::filesystem;

std::string directoryOf(const std::string& file) { return fs::path(file).parent_path().lexically_normal().generic_string(); }

/* Whether directory "inner" is "outer" or below it. */
bool isWithin(const std::string& inner, const std::string& outer) {
  if (outer.empty() || outer == ".") return true;
  return inner == outer || (inner.size() > outer.size() && inner.compare(0, outer.size(), outer) == 0 && inner[outer.size()] == '/');
}

}  // namespace

std::vector<std::vector<std::string>> splitIntoPrograms(const std::vector<std::string>& files, const std::set<std::string>& mainFiles) {
  if (mainFiles.size() <= 1) return {files};
  std::set<std::string> mainDirectories;
  for (const std::string& m : mainFiles) mainDirectories.insert(directoryOf(m));
  // A file without main belongs to the nearest directory above it (or its own) that holds a main file.
  std::map<std::string, std::vector<std::string>> helpersByDirectory;
  std::vector<std::string> unclaimed;
  for (const std::string& f : files) {
    if (mainFiles.count(f)) continue;
    std::string nearest;
    bool found = false;
    for (const std::string& d : mainDirectories)
      if (isWithin(directoryOf(f), d) && (!found || d.size() > nearest.size())) {
        nearest = d;
        found = true;
      }
    if (found) helpersByDirectory[nearest].push_back(f);
    else unclaimed.push_back(f);
  }
  std::vector<std::vector<std::string>> programs;
  for (const std::string& f : files) {
    if (!mainFiles.count(f)) continue;
    std::vector<std::string> program{f};
    auto helpers = helpersByDirectory.find(directoryOf(f));
    if (helpers != helpersByDirectory.end()) program.insert(program.end(), helpers->second.begin(), helpers->second.end());
    programs.push_back(std::move(program));
  }
  if (!unclaimed.empty()) programs.push_back(std::move(unclaimed));
  return programs;
}

}  // namespace cats::frontend
