#include "compile_command.hpp"

#include "sim/compiler_report.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>

extern char** environ;

namespace cats::driver {

std::variant<std::vector<std::string>, std::string> splitCommand(const std::string& command) {
  std::vector<std::string> words;
  std::string word;
  bool inWord = false;
  char quote = 0;
  for (std::size_t i = 0; i < command.size(); ++i) {
    char c = command[i];
    bool escapes = c == '\\' && quote != '\'' && i + 1 < command.size() &&
                   (quote == 0 || std::string_view("\"\\$`").find(command[i + 1]) != std::string_view::npos);
    if (escapes) {
      word += command[++i];
    } else if (quote != 0) {
      if (c == quote) quote = 0;
      else word += c;
    } else if (c == '\'' || c == '"') {
      quote = c;
    } else if (c == ' ' || c == '\t' || c == '\n') {
      if (inWord) words.push_back(std::move(word));
      word.clear();
      inWord = false;
      continue;
    } else {
      word += c;
    }
    inWord = true;
  }
  if (quote != 0) return std::string("--compile-cmd has an unterminated ") + quote + " quote";
  if (inWord) words.push_back(std::move(word));
  if (words.empty()) return std::string("--compile-cmd names no compiler");
  return words;
}

namespace {

/* Words of the user's command that name inputs or outputs of its own build, which each run
   replaces with one analysed source and a temporary object file; and -flto, with which a -c
   compile stops before the optimisers and reports nothing. */
bool isInputFile(const std::string& word) {
  if (word.empty() || word[0] == '-') return false;
  for (const char* ext : {".c", ".i", ".o", ".a", ".so", ".cc", ".cpp"}) {
    std::string_view e(ext);
    if (word.size() > e.size() && word.compare(word.size() - e.size(), e.size(), e) == 0) return true;
  }
  return false;
}

std::vector<std::string> compilerFlags(const std::vector<std::string>& words) {
  std::vector<std::string> kept;
  for (std::size_t i = 1; i < words.size(); ++i) {
    const std::string& w = words[i];
    if (w == "-o") ++i;
    else if (w == "-c" || w == "-S" || w == "-E" || w.rfind("-o", 0) == 0 || w.rfind("-flto", 0) == 0 || isInputFile(w)) continue;
    else kept.push_back(w);
  }
  return kept;
}

}  // namespace

std::variant<sim::CompilerTarget, std::string> targetOfCommand(const std::vector<std::string>& words) {
  std::string program = std::filesystem::path(words.at(0)).filename().string();
  std::string compiler;
  if (program.find("clang") != std::string::npos) compiler = "clang";
  else if (program.find("gcc") != std::string::npos || program == "cc") compiler = "gcc";
  else return "--compile-cmd: cannot tell whether '" + words[0] + "' is GCC or Clang (name it gcc..., cc or clang...)";
  std::string flags = "-O0";
  for (const std::string& flag : compilerFlags(words)) flags += " " + flag;
  return sim::parseCompilerTarget(compiler, "", flags);
}

namespace {

/* A pipe whose ends close with it. */
struct Pipe {
  std::array<int, 2> fd{-1, -1};
  ~Pipe() {
    for (int f : fd)
      if (f >= 0) close(f);
  }
};

struct RunOutcome {
  std::string stderrText;
  std::optional<std::string> failure;  // why the run did not succeed
};

/* Reads "fd" until it closes or "deadline" passes; false on the deadline. */
bool drain(int fd, std::string& out, std::chrono::steady_clock::time_point deadline) {
  std::array<char, 4096> buffer{};
  for (;;) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
    if (left <= 0) return false;
    pollfd p{fd, POLLIN, 0};
    int ready = poll(&p, 1, static_cast<int>(std::min<long long>(left, 1000)));
    if (ready < 0 && errno != EINTR) return true;
    if (ready <= 0) continue;
    ssize_t n = read(fd, buffer.data(), buffer.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return true;
    if (out.size() < (std::size_t{64} << 20)) out.append(buffer.data(), static_cast<std::size_t>(n));
  }
}

/* "argv" run with stdin and stdout on /dev/null, stderr captured; killed after "timeoutSeconds". */
RunOutcome run(const std::vector<std::string>& argv, int timeoutSeconds) {
  RunOutcome outcome;
  Pipe err;
  if (pipe2(err.fd.data(), O_CLOEXEC) != 0) return {{}, std::string("cannot create a pipe: ") + std::strerror(errno)};
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, err.fd[1], 2);
  std::vector<char*> args;
  args.reserve(argv.size() + 1);
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  int spawned = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) return {{}, "cannot run '" + argv[0] + "': " + std::strerror(spawned)};
  close(err.fd[1]);
  err.fd[1] = -1;
  bool finished = drain(err.fd[0], outcome.stderrText, std::chrono::steady_clock::now() + std::chrono::seconds(timeoutSeconds));
  if (!finished) kill(pid, SIGKILL);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!finished) outcome.failure = "stopped after " + std::to_string(timeoutSeconds) + " s";
  else if (WIFSIGNALED(status)) outcome.failure = std::string("killed by signal ") + std::to_string(WTERMSIG(status));
  else if (WEXITSTATUS(status) == 127) outcome.failure = "cannot run '" + argv[0] + "' (exit code 127)";
  else if (WEXITSTATUS(status) != 0) outcome.failure = "exit code " + std::to_string(WEXITSTATUS(status));
  return outcome;
}

/* The first line of the compiler's own messages that is an error, for the warning. */
std::string firstError(const std::string& text) {
  for (std::size_t at = 0; at < text.size();) {
    auto end = text.find('\n', at);
    std::string line = text.substr(at, end == std::string::npos ? std::string::npos : end - at);
    if (line.find("error") != std::string::npos) return line;
    if (end == std::string::npos) break;
    at = end + 1;
  }
  return {};
}

/* A fresh directory for the object files, removed with this. */
struct TempDir {
  std::filesystem::path path;
  TempDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "cats-compile-XXXXXX").string();
    if (mkdtemp(pattern.data())) path = pattern;
  }
  ~TempDir() {
    std::error_code ignored;
    if (!path.empty()) std::filesystem::remove_all(path, ignored);
  }
};

}  // namespace

CompilerRun runCompilerReports(const std::vector<std::string>& words, sim::CompilerKind kind, const std::vector<std::string>& sources,
                               const std::vector<std::string>& extraFlags, int timeoutSeconds) {
  CompilerRun result;
  for (const std::string& w : words) result.reported.command += (result.reported.command.empty() ? "" : " ") + w;
  TempDir dir;
  if (dir.path.empty()) {
    result.problems.push_back(std::string("cannot create a temporary directory: ") + std::strerror(errno));
    return result;
  }
  std::vector<std::string> base{words.at(0)};
  for (const std::string& f : compilerFlags(words)) base.push_back(f);
  for (const std::string& f : extraFlags) base.push_back(f);
  for (const std::string& f : sim::reportFlags(kind)) base.push_back(f);
  for (std::size_t i = 0; i < sources.size(); ++i) {
    std::vector<std::string> argv = base;
    for (std::string a : {std::string("-c"), sources[i], std::string("-o"), (dir.path / ("unit" + std::to_string(i) + ".o")).string()})
      argv.push_back(std::move(a));
    RunOutcome outcome = run(argv, timeoutSeconds);
    if (outcome.failure) {
      std::string detail = firstError(outcome.stderrText);
      result.problems.push_back("`" + result.reported.command + "` on " + sources[i] + ": " + *outcome.failure +
                                (detail.empty() ? "" : " (" + detail + ")"));
      if (outcome.stderrText.empty()) continue;
    }
    sim::parseCompilerReport(outcome.stderrText, result.reported);
  }
  return result;
}

}  // namespace cats::driver
