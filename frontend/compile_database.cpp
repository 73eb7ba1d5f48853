// compile_commands.json, read with LLVM's JSON parser. Clang's own reader runs every entry of a
// file (a file listed twice would be analysed twice and its functions defined twice) and takes a
// relative "directory" from the process's working directory, so we read the database ourselves.
#include "compile_database.hpp"

#include "frontend/frontend.hpp"

#include <llvm/Support/CommandLine.h>
#include <llvm/Support/JSON.h>
#include <llvm/Support/StringSaver.h>

#include <filesystem>
#include <fstream>
#include <map>
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
  llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(readText(databasePath));
  if (!parsed) throw InputError(where + " is not valid JSON: " + llvm::toString(parsed.takeError()));
  const llvm::json::Array* entries = parsed->getAsArray();
  if (!entries) throw InputError(where + " is not a JSON array of compile commands");
  fs::path base = fs::absolute(fs::path(buildDir)).lexically_normal();
  std::map<std::string, clang::tooling::CompileCommand> commands;
  std::size_t index = 0;
  for (const llvm::json::Value& value : *entries) {
    ++index;
    const llvm::json::Object* entry = value.getAsObject();
    auto directory = entry ? entry->getString("directory") : llvm::None;
    auto file = entry ? entry->getString("file") : llvm::None;
    const llvm::json::Array* arguments = entry ? entry->getArray("arguments") : nullptr;
    auto command = entry ? entry->getString("command") : llvm::None;
    if (!directory || !file || (!arguments && !command))
      throw InputError(where + ": entry " + std::to_string(index) + " needs \"directory\", \"file\" and \"arguments\" or \"command\"");
    std::string dir = absoluteFrom(base, directory->str());
    std::string path = absoluteFrom(dir, file->str());
    if (fs::path(path).extension() != ".c" || commands.count(path)) continue;
    std::vector<std::string> words;
    if (arguments) {
      for (const llvm::json::Value& a : *arguments)
        if (auto s = a.getAsString()) words.push_back(s->str());
    } else {
      words = splitCommand(command->str());
    }
    if (words.empty()) throw InputError(where + ": entry " + std::to_string(index) + " has an empty command");
    commands.emplace(path, clang::tooling::CompileCommand(dir, path, std::move(words), ""));
  }
  for (const auto& [path, command] : commands) files.push_back(path);
  return std::make_unique<ListedDatabase>(std::move(commands));
}

}  // namespace cats::frontend
