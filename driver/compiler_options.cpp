#include "compiler_options.hpp"

#include "compile_command.hpp"

#include <algorithm>

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
  cmd.add_option("--binding", args.binding,
                 "How the program binds C library functions: lazy (the default link: ld.so looks each one up at its first call, "
                 "evicting data) or now (linked with -z now or statically); default lazy, or what --compile-cmd links")
      ->check(CLI::IsMember({"lazy", "now"}));
}

namespace {

/* The options the linker gets from "words": -Wl,a,b,c and -Xlinker a, one word each. */
std::vector<std::string> linkerOptions(const std::vector<std::string>& words) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < words.size(); ++i) {
    if (words[i].rfind("-Wl,", 0) == 0) {
      std::string rest = words[i].substr(4);
      for (std::size_t from = 0, comma; from <= rest.size(); from = comma + 1) {
        comma = std::min(rest.find(',', from), rest.size());
        out.push_back(rest.substr(from, comma - from));
      }
    } else if ((words[i] == "-Xlinker" || words[i] == "-z") && i + 1 < words.size()) {
      if (words[i] == "-z") out.push_back("-z");
      out.push_back(words[++i]);
    }
  }
  return out;
}

/* Whether a program built by "words" has its library functions bound before main: linked with
   -z now (alone, in a -Wl list, or split over -Wl words), statically, or without a PLT. */
bool bindsAtStart(const std::vector<std::string>& words) {
  for (const std::string& w : words)
    if (w == "-static" || w == "-static-pie" || w == "-fno-plt") return true;
  const std::vector<std::string> linker = linkerOptions(words);
  for (std::size_t i = 0; i < linker.size(); ++i)
    if (linker[i] == "-znow" || (linker[i] == "-z" && i + 1 < linker.size() && linker[i + 1] == "now")) return true;
  return false;
}

}  // namespace

sim::BindingOptions bindingFrom(const CompilerArgs& args, sim::CompilerKind compiler) {
  sim::BindingOptions binding;
  std::vector<std::string> words;
  if (args.compileCmd) {
    auto split = splitCommand(*args.compileCmd);
    if (auto* w = std::get_if<std::vector<std::string>>(&split)) words = std::move(*w);
  }
  binding.lazy = args.binding ? *args.binding == "lazy" : !bindsAtStart(words);
  // Debian's GCC links with --as-needed (libm only when used; the model assumes not), Clang
  // without it (libm whenever -lm is given; the model assumes it is).
  binding.libm = compiler == sim::CompilerKind::Clang && (!args.compileCmd || std::find(words.begin(), words.end(), "-lm") != words.end());
  return binding;
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
