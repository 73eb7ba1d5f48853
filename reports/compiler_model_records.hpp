// The compiler model's decisions as typed records in the shape of the program (function >
// call > loop), built once and rendered as text or JSON (compiler_model.cpp). Private to reports/.
#pragma once

#include "sim/compiler.hpp"
#include "tracer/trace.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace cats::report {

/// A promoted, merged or reloaded access under a loop.
struct ModelAccess {
  std::string text;  // source text, "C[i][j]"
  std::string location;
  sim::AccessDecision::Kind kind = sim::AccessDecision::Kind::Memory;
  std::string reason;
};

/// One Function, Call or Loop scope of the contexts trace and what the model assumed for it.
struct ModelNode {
  enum class Kind { Function, Call, Loop };
  Kind kind = Kind::Function;
  std::string name;         // the function entered, or the loop's iterator ("?" for an opaque loop)
  std::string location;     // file:line of the function's entry, call site or loop
  std::string compiledInto; // the function whose machine code holds it (differs when inlined)
  std::vector<std::string> stackSlots;  // Function and Call: the frame's scalar slots (-O0)
  const sim::CallDecision* call = nullptr;  // Call
  const sim::LoopDecision* loop = nullptr;  // Loop
  std::vector<ModelAccess> accesses;        // Loop: accesses the model does not simply send to memory
  std::vector<ModelNode> children;
};

/// The tree below the program scope of "contexts" with "plan"'s decisions.
std::vector<ModelNode> compilerModelTree(const trace::Trace& contexts, const sim::CompilationPlan& plan);

/// The "compiler_model" section of the simulation JSON (docs/simulation-format.md).
nlohmann::ordered_json compilerModelJson(const trace::Trace& contexts, const sim::CompilationPlan& plan);

}  // namespace cats::report
