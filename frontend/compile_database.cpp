// compile_commands.json, read with nlohmann-json (LLVM 14's JSON.h does not compile with
// clang++-14 in C++20, which the fuzz build uses). Clang's own reader runs every entry of a
// file (a file listed twice would be analysed twice and its functions defined twice) and takes a
// relative "directory" from the process's working directory, so we read the database ourselves.
#include "compile_database.hpp"

#include "frontend/frontend.hpp"

#include <llvm/Support/CommandLine.h>
#include <llvm/Support/StringSaver.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>

namespace cats::frontend {

namespace fs = std::filesystem;

namespace {

/* One command per file, as read. */
class ListedDatabase : public clang::tooling::CompilationDatabase {
 public:
  explicit ListedDatabase(std::map<std::string, clang::tooling::CompileCommand> commands) : commands_(std::move(commands)) {}

  std::vector<clang::tooling::CompileCommand> getCompileCommands(llvm::StringRef file) const override {
    auto it = commands_.find(file.str());
    if (it == commands_.end()) return {};
    return {it->second};
  }
  std::vector<std::string> getAllFiles() const override {
    std::vector<std::string> out;
    for (const auto& [file, command] : commands_) out.push_back(file);
    return out;
  }

 private:
  std::map<std::string, clang::tooling::CompileCommand> commands_;
};

/* The words of a shell command line (quotes and backslashes as a POSIX shell reads them). */
std::vector<std::string> splitCommand(const std::string& command) {
  llvm::BumpPtrAllocator allocator;
  llvm::StringSaver saver(allocator);
  llvm::SmallVector<const char*, 64> words;
  llvm::cl::TokenizeGNUCommandLine(command, saver, words);
  return std::vector<std::string>(words.begin(), words.end());
}

/* "path" made absolute against "base", normalised. */
std::string absoluteFrom(const fs::path& base, const std::string& path) {
  fs::path p(path);
  return (p.is_absolute() ? p : base / p).lexically_normal().string();
}

std::string readText(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError("cannot read '" + path.string() + "'");
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

std::unique_ptr<clang::tooling::CompilationDatabase> readCompileCommands(const std::string& buildDir, std::vector<std::string>& files) {
  fs::path databasePath = fs::path(buildDir) / "compile_commands.json";
  std::string where = "'" + databasePath.string() + "'";
  if (!fs::exists(databasePath)) throw InputError("no compile_commands.json in '" + buildDir + "'");
  nlohmann::json parsed = nlohmann::json::parse(readText(databasePath), nullptr, /*allow_exceptions=*/false);
  if (parsed.is_discarded()) throw InputError(where + " is not valid JSON");
  if (!parsed.is_array()) throw InputError(where + " is not a JSON array of compile commands");
  fs::path base = fs::absolute(fs::path(buildDir)).lexically_normal();
  std::map<std::string, clang::tooling::CompileCommand> commands;
  std::size_t index = 0;
  auto text = [](const nlohmann::json& entry, const char* key) -> std::optional<std::string> {
    auto it = entry.find(key);
    if (it == entry.end() || !it->is_string()) return std::nullopt;
    return it->get<std::string>();
  };
  for (const nlohmann::json& entry : parsed) {
    ++index;
    bool object = entry.is_object();
    auto directory = object ? text(entry, "directory") : std::nullopt;
    auto file = object ? text(entry, "file") : std::nullopt;
    const nlohmann::json* arguments = object && entry.contains("arguments") && entry["arguments"].is_array() ? &entry["arguments"] : nullptr;
    auto command = object ? text(entry, "command") : std::nullopt;
    if (!directory || !file || (!arguments && !command))
      throw InputError(where + ": entry " + std::to_string(index) + " needs \"directory\", \"file\" and \"arguments\" or \"command\"");
    std::string dir = absoluteFrom(base, *directory);
    std::string path = absoluteFrom(dir, *file);
    if (fs::path(path).extension() != ".c" || commands.count(path)) continue;
    std::vector<std::string> words;
    if (arguments) {
      for (const nlohmann::json& a : *arguments)
        if (a.is_string()) words.push_back(a.get<std::string>());
    } else {
      words = splitCommand(*command);
    }
    if (words.empty()) throw InputError(where + ": entry " + std::to_string(index) + " has an empty command");
    commands.emplace(path, clang::tooling::CompileCommand(dir, path, std::move(words), ""));
  }
  for (const auto& [path, command] : commands) files.push_back(path);
  return std::make_unique<ListedDatabase>(std::move(commands));
}

}  // namespace cats::frontend
