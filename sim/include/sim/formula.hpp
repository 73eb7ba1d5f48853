// Integer formulas over loop-iterator slots, compiled from symbolic expressions once and
// evaluated for every access: a linear fast path, a small stack machine otherwise.
#pragma once

#include "sim/value_memory.hpp"
#include "symbolic/expr.hpp"

#include <climits>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace cats::sim {

inline constexpr int kMaxSlots = 32;  // loop nesting depth the stream supports, and carried values (from the top)
/// A carried value's slot holds this when the value could not be computed (a load found nothing).
inline constexpr std::int64_t kUnknownCarried = INT64_MIN;

class Formula {
 public:
  Formula() = default;
  static Formula constant(std::int64_t value);
  /// constant + sum of coefficient * slot value.
  static Formula linear(std::int64_t constant, const std::vector<std::pair<int, std::int64_t>>& terms);
  /// A value the analysis lost: evaluate(slots, memory) never gives one.
  static Formula unknown() {
    Formula f;
    f.markDependsOnData();
    f.linear_ = false;
    return f;
  }

  /// Holds a value loaded from memory or an unknown: it cannot be evaluated without data.
  bool dependsOnData() const { return dependsOnData_; }
  bool isLinear() const { return linear_; }
  std::int64_t constantTerm() const { return constant_; }
  /// (slot, coefficient) pairs of a linear formula.
  const std::vector<std::pair<int, std::int64_t>>& terms() const { return terms_; }
  bool usesSlot(int slot) const;
  std::int64_t coefficientOf(int slot) const;
  /// The value of a formula that reads no slot and no data.
  std::optional<std::int64_t> constantValue() const;
  /// A linear formula with slot "slot" fixed at "value".
  Formula withSlotValue(int slot, std::int64_t value) const;

  /// The expression had fractional coefficients (a trip count or pointer difference divided by an
  /// element size): it is evaluated as its integer multiple divided by the common denominator,
  /// truncated as C divides.
  bool truncated() const { return truncated_; }

  /// Value with iterator values "slots"; must not depend on data. The linear case is inline:
  /// the stream evaluates offsets and bounds at every leaf entry and drawn access.
  std::int64_t evaluate(const std::int64_t* slots) const { return linear_ ? linearValue(constant_, terms_, slots) : evaluateByStack(slots); }
  /// The data it depends on is only loads of containers the scope named (no value the analysis
  /// lost): evaluate(slots, memory) can give its value.
  bool readsMemory() const { return dependsOnData_ && !opaque_; }
  /// Containers it loads from (Load instructions), in code order.
  std::vector<std::uint32_t> loadedContainers() const;
  /// Value with iterator values "slots" and loads answered by "memory"; nullopt when a load has no
  /// value there or the formula holds a value the analysis lost.
  std::optional<std::int64_t> evaluate(const std::int64_t* slots, const ValueMemory& memory) const;
  /// False when evaluate(slots, memory) surely has no value: a single load from a container where
  /// "memory" knows nothing (kmeans' label[i], stored but never known), checked without a call.
  bool mayHaveValue(const ValueMemory& memory) const { return !opaque_ && (!singleLoad_ || memory.holdsAny(loadContainer_)); }

 private:
  friend class FormulaCompiler;
  /// constant + sum of coefficient * slots[slot], wrapping in two's complement as the program's
  /// 64-bit address arithmetic does.
  static std::int64_t linearValue(std::int64_t constant, const std::vector<std::pair<int, std::int64_t>>& terms, const std::int64_t* slots) {
    auto v = static_cast<std::uint64_t>(constant);
    for (const auto& [slot, coefficient] : terms) v += static_cast<std::uint64_t>(coefficient) * static_cast<std::uint64_t>(slots[slot]);
    return static_cast<std::int64_t>(v);
  }
  /// evaluate() of a formula that is not linear: the stack machine.
  std::int64_t evaluateByStack(const std::int64_t* slots) const;
  /* Holds a value that needs data; 0 stands in for it in the code. */
  void markDependsOnData() {
    dependsOnData_ = true;
    opaque_ = true;
    code_.push_back({Op::Const, 0});
  }
  enum class Op : std::uint8_t { Const, Slot, Add, Mul, Neg, IDiv, IMod, Min, Max, Pow, Load, Carried };
  struct Instruction {
    Op op;
    std::int64_t value;  // Const: the number; Slot, Carried: the slot; Pow: the exponent; Load: the container
  };
  template <typename Load>
  std::optional<std::int64_t> run(const std::int64_t* slots, const Load& load) const;
  bool linear_ = true;
  bool dependsOnData_ = false;
  bool truncated_ = false;
  std::int64_t constant_ = 0;
  std::vector<std::pair<int, std::int64_t>> terms_;
  std::vector<Instruction> code_;
  std::vector<int> slots_;
  // The whole formula is load(container, linear offset) (an index x[col[j]], a bound rowptr[r]):
  // evaluated without the stack machine.
  std::vector<std::pair<int, std::int64_t>> loadTerms_;
  std::int64_t loadConstant_ = 0;
  std::uint32_t loadContainer_ = 0;
  bool singleLoad_ = false;
  bool opaque_ = false;  // holds a value the analysis lost (an unknown, a load of a container not in the scope)
};

/// Symbol values for compilation: iterators map to slots, parameters to numbers.
struct FormulaScope {
  std::map<std::string, int> iteratorSlots;
  std::map<std::string, std::int64_t> parameters;
  std::map<std::string, std::uint32_t> containers;  // loads of these compile to Load instructions
  /// Unknowns that are values a loop carries and the stream computes (LoopOp::carried): their
  /// slots. A formula reading one needs data: it has a value only when the slot holds one.
  std::map<std::string, int> carriedSlots;
};

/// Why a formula could not be compiled: a parameter without a value, or a non-integer.
struct FormulaError {
  std::string symbol;   // the unbound symbol, if that is the problem
  std::string message;
};

class FormulaCompiler {
 public:
  explicit FormulaCompiler(const sym::Context& ctx) : ctx_(ctx) {}
  /// Compiles "e" in "scope"; loads and unknowns make a data-dependent formula, not an error.
  std::variant<Formula, FormulaError> compile(const sym::Expr& e, const FormulaScope& scope) const;

 private:
  const sym::Context& ctx_;
  bool emit(const sym::Expr& e, const FormulaScope& scope, Formula& f, FormulaError& error) const;
};

}  // namespace cats::sim
