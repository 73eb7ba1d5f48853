// The register model (docs/register-model.md): the compiler's decisions of a CompilationPlan
// applied to a simulation program. Private to sim/.
#pragma once

#include "sim/compiler.hpp"
#include "sim/program.hpp"

#include <cstddef>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace cats::sim {

/// The plan's access decisions by trace event (an AccessOp's tag).
struct RegisterPlan {
  const CompilationPlan* plan = nullptr;
  std::unordered_map<std::uint32_t, std::vector<std::size_t>> promotedOutOf;  // event -> Loop scopes it is kept out of
  std::unordered_set<std::uint32_t> merged;                                  // events packed into a neighbour's vector access
  std::unordered_set<std::uint32_t> reused;                                  // reads of a value already in a register
  std::unordered_set<std::uint32_t> sunk;                                    // stores every arm of an if/else makes: one after it
};

/// Rewrites "block" as the plan keeps values in registers and vectorises loops; notes what
/// could only be approximated.
void applyRegisterModel(Block& block, const RegisterPlan& plan, std::vector<std::string>& notes);

}  // namespace cats::sim
