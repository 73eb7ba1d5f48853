// The compiler the simulation assumes: --compiler, -O, --cflags, and --model as the old alias.
#pragma once

#include "sim/compiler.hpp"
#include "sim/lazy_binding.hpp"

#include <CLI/CLI.hpp>

#include <optional>
#include <string>
#include <variant>

namespace cats::driver {

struct CompilerArgs {
  std::string compiler = "gcc";
  std::optional<std::string> level;  // -O
  std::string cflags;                // "-O3 -march=native -fno-inline"
  std::optional<std::string> model;  // --model O0|O2: gcc -O0 / gcc -O2
  std::optional<std::string> compileCmd;  // --compile-cmd 'gcc -O2 -march=native': the target, and the compiler's reports
  std::optional<std::string> binding;     // --binding lazy|now
};

void addCompilerOptions(CLI::App& cmd, CompilerArgs& args);
/// The target, or a usage message (--model together with -O or --cflags, either with
/// --compile-cmd, a bad value).
std::variant<sim::CompilerTarget, std::string> compilerTargetFrom(const CompilerArgs& args);
/// How the program binds library functions: --binding, else `now` when --compile-cmd links with
/// `-z now` (however spelled), statically or with -fno-plt, else lazily (the default link); libm
/// mapped as "compiler" links it.
sim::BindingOptions bindingFrom(const CompilerArgs& args, sim::CompilerKind compiler);

}  // namespace cats::driver
