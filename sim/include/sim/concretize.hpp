// The concretiser: binds every parameter of a symbolic trace and compiles it into a
// simulation program (sim/program.hpp) whose address stream sim/stream.hpp produces.
#pragma once

#include "sim/compiler.hpp"
#include "sim/program.hpp"
#include "tracer/trace.hpp"

#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace cats::sim {

/// What the compiler keeps in registers (docs/register-model.md).
enum class RegisterModel { O0, O2 };

/// What to do with a branch whose condition the parameters do not decide.
struct BranchPolicy {
  enum class Kind { Both, Then, Else, Probability };
  Kind kind = Kind::Both;
  double probability = 0.5;  // Probability: chance of taking the first arm
};
std::optional<BranchPolicy> parseBranchPolicy(const std::string& text);
std::optional<RegisterModel> parseRegisterModel(const std::string& text);

struct ConcretizeOptions {
  std::map<std::string, std::int64_t> bindings;  // -D NAME=VALUE
  RegisterModel model = RegisterModel::O2;
  BranchPolicy branches;
  std::int64_t unknownTrips = 1;                  // iterations of loops whose trip count is data
  std::map<std::string, std::uint64_t> place;     // --place NAME=ADDR
  std::map<std::string, std::int64_t> align;      // --align NAME=BYTES
  bool separateParameterBlocks = true;            // entry pointer parameters in page-aligned blocks
  const CompilationPlan* plan = nullptr;          // the compiler's decisions for this trace (none: the trace's own static bounds)
};

/// A parameter without a value: names the symbol and where it is used.
class BindingError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

Program concretize(const trace::Trace& trace, const ConcretizeOptions& options);

}  // namespace cats::sim
