// Finding the translation units to analyse.
#include "frontend/frontend.hpp"

#include <algorithm>
#include <filesystem>

namespace cats::frontend {

namespace fs = std::filesystem;

std::vector<std::string> collectSources(const std::vector<std::string>& paths) {
  std::vector<std::string> files;
  for (const auto& path : paths) {
    std::error_code ec;
    if (!fs::exists(path, ec)) throw UsageError("no such file or directory: '" + path + "'");
    if (fs::is_directory(path, ec)) {
      std::vector<std::string> found;
      for (auto it = fs::recursive_directory_iterator(path, fs::directory_options::skip_permission_denied, ec);
           it != fs::recursive_directory_iterator(); it.increment(ec)) {
        if (ec) break;
        if (it->is_regular_file() && it->path().extension() == ".c") found.push_back(it->path().lexically_normal().string());
      }
      if (found.empty()) throw InputError("no .c file found in directory '" + path + "'");
      std::sort(found.begin(), found.end());
      files.insert(files.end(), found.begin(), found.end());
    } else {
      files.push_back(fs::path(path).lexically_normal().string());
    }
  }
  std::sort(files.begin(), files.end());
  files.erase(std::unique(files.begin(), files.end()), files.end());
  return files;
}

/* The working directory the user started us in, taken at the first call: Clang's tools change
   the process's directory to each compile command's "directory" while they parse. */
static const fs::path& userDirectory() {
  static const fs::path cwd = [] {
    std::error_code ec;
    return fs::current_path(ec);
  }();
  return cwd;
}

std::string displayPath(const std::string& path) {
  std::error_code ec;
  fs::path absolute = fs::weakly_canonical(fs::absolute(path, ec), ec);
  const fs::path& cwd = userDirectory();
  fs::path relative = absolute.lexically_relative(cwd);
  if (!relative.empty() && *relative.begin() != "..") return relative.string();
  return absolute.string();
}

}  // namespace cats::frontend
