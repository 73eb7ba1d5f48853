// Calls through pointer parameters (see link_function_pointers.hpp).
#include "link_function_pointers.hpp"

#include "ir_walk.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace cats::frontend {

namespace {

using Key = std::pair<std::string, std::size_t>;  // (function, parameter)

/// The functions passed for each (function, parameter), and the pairs some call passes something else for.
struct Passed {
  std::map<Key, std::vector<std::string>> names;
  std::set<Key> unknown;
};

Passed collect(ir::Program& program) {
  Passed out;
  for (auto& f : program.functions)
    forEachBlock(f.body, [&](ir::Block& b) {
      for (const auto& node : b) {
        const auto* c = std::get_if<ir::Call>(&node.value);
        if (!c || c->callee.empty()) continue;
        for (std::size_t k = 0; k < c->arguments.size(); ++k) {
          const std::string& name = c->arguments[k].function;
          if (name.empty()) out.unknown.insert({c->callee, k});
          else if (auto& list = out.names[{c->callee, k}]; std::find(list.begin(), list.end(), name) == list.end()) list.push_back(name);
        }
      }
    });
  return out;
}

/* The node replacing placeholder "c" of "f": a call, a branch over the targets, or nothing. */
std::optional<ir::Node> resolve(const ir::Call& c, const ir::Function& f, const Passed& passed, ir::Program& program) {
  Key key{f.name, *c.throughParameter};
  const std::string& param = f.params.at(*c.throughParameter).name;
  auto it = passed.names.find(key);
  if (passed.unknown.count(key) || it == passed.names.end()) {
    program.diagnostics.push_back(ir::Diagnostic{ir::Severity::Warning, c.loc,
                                                 "call through a function pointer whose target is not known (parameter '" + param + "' of " +
                                                     f.name + ", and not every caller passes a function by name) is not followed: its memory "
                                                     "accesses are missing; the result is approximate"});
    return std::nullopt;
  }
  auto direct = [&](const std::string& target) {
    ir::Call call = c;
    call.callee = target;
    call.throughParameter.reset();
    return ir::Node{std::move(call)};
  };
  if (it->second.size() == 1) {
    program.diagnostics.push_back(ir::Diagnostic{ir::Severity::Note, c.loc, "call through parameter '" + param + "' goes to " + it->second[0]});
    return direct(it->second[0]);
  }
  ir::Branch branch;
  branch.loc = c.loc;
  std::string names;
  for (const auto& target : it->second) {
    names += (names.empty() ? "" : ", ") + target;
    branch.arms.push_back(ir::Arm{"calls " + target, sym::Condition::opaque(param + " == " + target), {direct(target)}});
  }
  program.diagnostics.push_back(ir::Diagnostic{ir::Severity::Warning, c.loc,
                                               "call through parameter '" + param + "' may go to any of " + names +
                                                   ": traced as one branch arm per target; the result is approximate"});
  return ir::Node{std::move(branch)};
}

}  // namespace

void linkParameterCalls(ir::Program& program) {
  Passed passed = collect(program);
  for (auto& f : program.functions)
    forEachBlock(f.body, [&](ir::Block& b) {
      for (std::size_t i = 0; i < b.size();) {
        const auto* c = std::get_if<ir::Call>(&b[i].value);
        if (!c || !c->throughParameter) {
          ++i;
          continue;
        }
        if (auto replacement = resolve(*c, f, passed, program)) b[i++] = std::move(*replacement);
        else b.erase(b.begin() + static_cast<std::ptrdiff_t>(i));
      }
    });
}

}  // namespace cats::frontend
