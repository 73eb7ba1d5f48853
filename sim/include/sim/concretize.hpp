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

/// --trips LOC=EXPR: the iterations of the data-dependent loop at LOC (file:line or function:line).
struct TripCount {
  std::string loop;   // LOC as the user wrote it
  std::string count;  // an integer or an expression of the bound parameters
};
/// "LOC=EXPR" split at its last '='; nullopt when it has no LOC or no EXPR.
std::optional<TripCount> parseTripCount(const std::string& text);

struct ConcretizeOptions {
  std::map<std::string, std::int64_t> bindings;  // -D NAME=VALUE
  RegisterModel model = RegisterModel::O2;
  BranchPolicy branches;
  std::int64_t unknownTrips = 1;                  // iterations of loops whose trip count is data
  std::vector<TripCount> trips;                   // --trips: what the user knows of some of them
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

/// An option that does not fit the program (a --trips LOC naming no data-dependent loop): exit 2.
class OptionError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

Program concretize(const trace::Trace& trace, const ConcretizeOptions& options);

}  // namespace cats::sim
