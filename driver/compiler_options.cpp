#include "compiler_options.hpp"

#include "compile_command.hpp"

namespace cats::driver {

void addCompilerOptions(CLI::App& cmd, CompilerArgs& args) {
  cmd.add_option("--compiler", args.compiler, "Compiler whose optimisations are modelled: gcc or clang (docs/register-model.md)")
      ->check(CLI::IsMember({"gcc", "clang"}))
      ->capture_default_str();
  cmd.add_option("-O", args.level, "Optimisation level modelled: 0, 1, 2, 3 or fast (default 2)");
  cmd.add_option("--cflags", args.cflags, "Compiler flags modelled, e.g. \"-O3 -march=x86-64-v3 -fno-inline\"");
  cmd.add_option("--model", args.model, "Alias: O0 is --compiler gcc -O0, O2 is --compiler gcc -O2")->check(CLI::IsMember({"O0", "O2"}));
  cmd.add_option("--compile-cmd", args.compileCmd,
                 "Compile the sources with this command (e.g. 'gcc -O2 -march=native') and take the loops it vectorises and the "
                 "calls it inlines from its own reports; nothing is run");
}

std::variant<sim::CompilerTarget, std::string> compilerTargetFrom(const CompilerArgs& args) {
  if (args.compileCmd) {
    if (args.model || args.level || !args.cflags.empty()) return std::string("--compile-cmd gives the compiler and its flags: no --model, -O or --cflags with it");
    auto words = splitCommand(*args.compileCmd);
    if (auto* message = std::get_if<std::string>(&words)) return *message;
    return targetOfCommand(std::get<std::vector<std::string>>(words));
  }
  if (args.model) {
    if (args.level || !args.cflags.empty()) return std::string("--model is an alias of -O: give one of them");
    return sim::parseCompilerTarget(args.compiler, args.model->substr(1), "");
  }
  return sim::parseCompilerTarget(args.compiler, args.level.value_or(""), args.cflags.empty() ? "-O2" : "-O2 " + args.cflags);
}

}  // namespace cats::driver
