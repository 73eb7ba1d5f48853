#include "gnuplot.hpp"

#include <spawn.h>
#include <sys/wait.h>

#include <cstdlib>
#include <fcntl.h>
#include <fstream>
#include <sstream>
#include <vector>

extern char** environ;

namespace cats::driver {

std::string makeTempDir() {
  const char* base = std::getenv("TMPDIR");
  std::string pattern = std::string(base && *base ? base : "/tmp") + "/cats-scale-XXXXXX";
  std::vector<char> buffer(pattern.begin(), pattern.end());
  buffer.push_back('\0');
  return mkdtemp(buffer.data()) ? std::string(buffer.data()) : std::string();
}

std::optional<std::string> runGnuplot(const std::string& script, const std::string& data, const std::string& dataPath,
                                      const std::string& scriptPath) {
  {
    std::ofstream d(dataPath), s(scriptPath);
    d << data;
    s << script;
    if (!d || !s) return "cannot write the plot's inputs in " + dataPath;
  }
  std::string errorsPath = scriptPath + ".err";
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, errorsPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  std::string program = "gnuplot";
  std::vector<char*> argv{program.data(), const_cast<char*>(scriptPath.c_str()), nullptr};
  pid_t pid = 0;
  int spawned = posix_spawnp(&pid, "gnuplot", &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) return "cannot run gnuplot (scripts/install-deps.sh installs gnuplot-nox)";
  int status = 0;
  if (waitpid(pid, &status, 0) < 0) return "gnuplot did not finish";
  std::ifstream err(errorsPath);
  std::stringstream text;
  text << err.rdbuf();
  if (WIFEXITED(status) && WEXITSTATUS(status) == 127) return "gnuplot is not installed (scripts/install-deps.sh installs gnuplot-nox)";
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return "gnuplot failed: " + text.str();
  return std::nullopt;
}

}  // namespace cats::driver
