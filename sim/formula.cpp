// Compilation and evaluation of integer formulas.
#include "sim/formula.hpp"

#include "indexed_offset.hpp"
#include "sim/divide.hpp"

#include <algorithm>
#include <variant>

namespace cats::sim {

/* Two's-complement arithmetic: a formula the program's values overflow gives a wrapped value, as
   the program's own 64-bit arithmetic would, not undefined behaviour (found by frontend_fuzz). */
static std::int64_t wrappingAdd(std::int64_t a, std::int64_t b) { return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) + static_cast<std::uint64_t>(b)); }
static std::int64_t wrappingMul(std::int64_t a, std::int64_t b) { return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) * static_cast<std::uint64_t>(b)); }

Formula Formula::constant(std::int64_t value) {
  Formula f;
  f.constant_ = value;
  f.code_.push_back({Op::Const, value});
  return f;
}

Formula Formula::linear(std::int64_t constant, const std::vector<std::pair<int, std::int64_t>>& terms) {
  Formula f = Formula::constant(constant);
  for (const auto& [slot, coefficient] : terms) {
    if (coefficient == 0) continue;
    f.terms_.emplace_back(slot, coefficient);
    f.slots_.push_back(slot);
    f.code_.push_back({Op::Slot, slot});
    f.code_.push_back({Op::Const, coefficient});
    f.code_.push_back({Op::Mul, 0});
    f.code_.push_back({Op::Add, 0});
  }
  return f;
}

bool Formula::usesSlot(int slot) const { return std::find(slots_.begin(), slots_.end(), slot) != slots_.end(); }

std::int64_t Formula::coefficientOf(int slot) const {
  for (const auto& [s, c] : terms_)
    if (s == slot) return c;
  return 0;
}

std::optional<std::int64_t> Formula::constantValue() const {
  if (!linear_ || dependsOnData_ || !terms_.empty()) return std::nullopt;
  return constant_;
}

Formula Formula::withSlotValue(int slot, std::int64_t value) const {
  std::vector<std::pair<int, std::int64_t>> rest;
  for (const auto& term : terms_)
    if (term.first != slot) rest.push_back(term);
  return Formula::linear(wrappingAdd(constant_, wrappingMul(coefficientOf(slot), value)), rest);
}

/* C truncating division; division by zero yields 0 rather than a crash (the program would trap). */
// A non-negative value over a positive divisor (the common case: a vector loop's bound over its
// width) takes quotient()'s shift where the divisor is a power of two.
static std::int64_t truncDiv(std::int64_t a, std::int64_t b) {
  if (a >= 0 && b > 0) return static_cast<std::int64_t>(quotient(static_cast<std::uint64_t>(a), static_cast<std::uint64_t>(b)));
  return b == 0 ? 0 : b == -1 ? wrappingMul(a, -1) : a / b;
}
static std::int64_t truncMod(std::int64_t a, std::int64_t b) {
  if (a >= 0 && b > 0) return static_cast<std::int64_t>(remainder(static_cast<std::uint64_t>(a), static_cast<std::uint64_t>(b)));
  return b == 0 || b == -1 ? 0 : a % b;
}

std::int64_t Formula::evaluateByStack(const std::int64_t* slots) const {
  return run(slots, [](std::uint32_t, std::int64_t) { return std::optional<std::int64_t>(0); }).value_or(0);
}

std::optional<std::int64_t> Formula::evaluate(const std::int64_t* slots, const ValueMemory& memory) const {
  if (!mayHaveValue(memory)) return std::nullopt;
  if (linear_) return evaluate(slots);
  if (singleLoad_) {
    const std::int64_t offset = linearValue(loadConstant_, loadTerms_, slots);
    return memory.load(loadContainer_, offset);
  }
  return run(slots, [&](std::uint32_t container, std::int64_t offset) { return memory.load(container, offset); });
}

std::vector<std::uint32_t> Formula::loadedContainers() const {
  std::vector<std::uint32_t> out;
  for (const Instruction& in : code_)
    if (in.op == Op::Load) out.push_back(static_cast<std::uint32_t>(in.value));
  return out;
}

/* The stack machine; "load" answers a Load (container, offset) or gives nullopt, which ends it. */
template <typename Load>
std::optional<std::int64_t> Formula::run(const std::int64_t* slots, const Load& load) const {
  std::int64_t stack[64];
  int top = 0;
  for (const Instruction& in : code_) {
    switch (in.op) {
      case Op::Load: {
        std::optional<std::int64_t> value = load(static_cast<std::uint32_t>(in.value), stack[top - 1]);
        if (!value) return std::nullopt;
        stack[top - 1] = *value;
        break;
      }
      case Op::Const: stack[top++] = in.value; break;
      case Op::Slot: stack[top++] = slots[in.value]; break;
      case Op::Carried:
        if (slots[in.value] == kUnknownCarried) return std::nullopt;
        stack[top++] = slots[in.value];
        break;
      case Op::Add: --top; stack[top - 1] = wrappingAdd(stack[top - 1], stack[top]); break;
      case Op::Mul: --top; stack[top - 1] = wrappingMul(stack[top - 1], stack[top]); break;
      case Op::Neg: stack[top - 1] = wrappingMul(stack[top - 1], -1); break;
      case Op::IDiv: --top; stack[top - 1] = truncDiv(stack[top - 1], stack[top]); break;
      case Op::IMod: --top; stack[top - 1] = truncMod(stack[top - 1], stack[top]); break;
      case Op::Min: --top; stack[top - 1] = std::min(stack[top - 1], stack[top]); break;
      case Op::Max: --top; stack[top - 1] = std::max(stack[top - 1], stack[top]); break;
      case Op::Pow: {
        std::int64_t base = stack[top - 1], result = 1;
        for (std::int64_t i = 0; i < in.value; ++i) result = wrappingMul(result, base);
        stack[top - 1] = result;
        break;
      }
    }
  }
  return top > 0 ? stack[top - 1] : 0;
}

bool FormulaCompiler::emit(const sym::Expr& e, const FormulaScope& scope, Formula& f, FormulaError& error) const {
  using Op = Formula::Op;
  if (GiNaC::is_a<GiNaC::numeric>(e)) {
    auto value = sym::toInteger(e);
    if (!value) {
      error.message = "'" + sym::print(e) + "' is not an integer";
      return false;
    }
    f.code_.push_back({Op::Const, *value});
    return true;
  }
  if (GiNaC::is_a<GiNaC::symbol>(e)) {
    const std::string name = GiNaC::ex_to<GiNaC::symbol>(e).get_name();
    if (auto slot = scope.iteratorSlots.find(name); slot != scope.iteratorSlots.end()) {
      f.code_.push_back({Op::Slot, slot->second});
      if (!f.usesSlot(slot->second)) f.slots_.push_back(slot->second);
      return true;
    }
    if (auto value = scope.parameters.find(name); value != scope.parameters.end()) {
      f.code_.push_back({Op::Const, value->second});
      return true;
    }
    if (auto slot = scope.carriedSlots.find(name); slot != scope.carriedSlots.end()) {
      f.code_.push_back({Op::Carried, slot->second});
      f.dependsOnData_ = true;
      return true;
    }
    auto kind = ctx_.kindOf(GiNaC::ex_to<GiNaC::symbol>(e));
    if (kind == sym::SymbolKind::Unknown) {
      f.markDependsOnData();
      return true;
    }
    error.symbol = name;
    error.message = "no value for '" + name + "'";
    return false;
  }
  if (sym::isLoad(e)) {
    auto [container, offset] = sym::loadParts(e);
    auto known = scope.containers.find(container.get_name());
    Formula withLoad = f;
    FormulaError ignored;
    if (known != scope.containers.end() && emit(offset, scope, withLoad, ignored)) {
      withLoad.code_.push_back({Op::Load, known->second});
      withLoad.dependsOnData_ = true;
      f = std::move(withLoad);
    } else {
      f.markDependsOnData();
    }
    return true;
  }
  auto binary = [&](Op op) {
    if (e.nops() == 0) return true;
    if (!emit(e.op(0), scope, f, error)) return false;
    for (std::size_t i = 1; i < e.nops(); ++i) {
      if (!emit(e.op(i), scope, f, error)) return false;
      f.code_.push_back({op, 0});
    }
    return true;
  };
  if (GiNaC::is_a<GiNaC::add>(e)) return binary(Op::Add);
  if (GiNaC::is_a<GiNaC::mul>(e)) return binary(Op::Mul);
  if (GiNaC::is_a<GiNaC::power>(e)) {
    auto exponent = sym::toInteger(e.op(1));
    if ((!exponent || *exponent < 0) && needsData(e, ctx_)) {  // a quotient of values the analysis lost: data too
      f.markDependsOnData();
      return true;
    }
    if (!exponent || *exponent < 0) {
      error.message = "'" + sym::print(e) + "' is not an integer power";
      return false;
    }
    if (!emit(e.op(0), scope, f, error)) return false;
    f.code_.push_back({Op::Pow, *exponent});
    return true;
  }
  if (GiNaC::is_a<GiNaC::function>(e)) {
    const std::string name = GiNaC::ex_to<GiNaC::function>(e).get_name();
    if (name == "idiv") return binary(Op::IDiv);
    if (name == "imod") return binary(Op::IMod);
    if (name == "min") return binary(Op::Min);
    if (name == "max") return binary(Op::Max);
  }
  error.message = "cannot evaluate '" + sym::print(e) + "'";
  return false;
}

namespace {

/* The least common multiple of the denominators of the numbers in "e" outside function arguments
   (1 when they are all integers). */
GiNaC::numeric denominators(const sym::Expr& e) {
  if (GiNaC::is_a<GiNaC::numeric>(e)) return GiNaC::ex_to<GiNaC::numeric>(e).denom();
  if (GiNaC::is_a<GiNaC::function>(e) || GiNaC::is_a<GiNaC::power>(e)) return 1;  // an argument or exponent: emit() decides
  GiNaC::numeric d = 1;
  for (std::size_t i = 0; i < e.nops(); ++i) d = GiNaC::lcm(d, denominators(e.op(i)));
  return d;
}

}  // namespace

std::variant<Formula, FormulaError> FormulaCompiler::compile(const sym::Expr& e, const FormulaScope& scope) const {
  Formula f;
  FormulaError error;
  GiNaC::exmap values;
  for (const auto& [name, value] : scope.parameters)
    if (auto symbol = ctx_.find(name)) values[*symbol] = value;
  sym::Expr bound = values.empty() ? e.expand() : e.subs(values).expand();
  if (const GiNaC::numeric d = denominators(bound); d != 1 && d.is_pos_integer() && d <= GiNaC::numeric(1L << 30)) {
    // (len - 1) / 255 arrives as len/255 - 1/255: evaluate (len - 1) and divide, as the C code does.
    if (!emit((bound * d).expand(), scope, f, error)) return error;
    f.code_.push_back({Formula::Op::Const, d.to_long()});
    f.code_.push_back({Formula::Op::IDiv, 0});
    f.truncated_ = true;
    f.linear_ = false;
    if (!f.dependsOnData_ && f.slots_.empty()) {  // no iterator, no data: a number now
      Formula folded = Formula::constant(f.evaluate(nullptr));
      folded.truncated_ = true;
      return folded;
    }
    return f;
  }
  if (!emit(bound, scope, f, error)) return error;
  if (f.dependsOnData_) {
    f.linear_ = false;
    if (!f.opaque_ && sym::isLoad(bound)) {
      auto [container, offset] = sym::loadParts(bound);
      auto known = scope.containers.find(container.get_name());
      auto inner = compile(offset, scope);
      if (auto* o = std::get_if<Formula>(&inner); known != scope.containers.end() && o && o->linear_ && !o->truncated_) {
        f.singleLoad_ = true;
        f.loadContainer_ = known->second;
        f.loadConstant_ = o->constant_;
        f.loadTerms_ = o->terms_;
      }
    }
    return f;
  }
  f.linear_ = false;
  std::vector<GiNaC::symbol> iterators;
  for (const auto& s : sym::symbolsOfKind(bound, ctx_, sym::SymbolKind::Iterator)) iterators.push_back(s);
  bool linear = true;  // parameters are numbers now, so any function left holds an iterator
  std::vector<std::pair<int, std::int64_t>> terms;
  sym::Expr rest = bound;
  for (const auto& it : iterators) {
    if (!linear) break;
    if (!bound.is_polynomial(it) || bound.degree(it) > 1) {
      linear = false;
      break;
    }
    auto coefficient = sym::toInteger(bound.coeff(it, 1));
    if (!coefficient) {
      linear = false;
      break;
    }
    auto slot = scope.iteratorSlots.find(it.get_name());
    if (slot == scope.iteratorSlots.end()) {
      linear = false;
      break;
    }
    terms.emplace_back(slot->second, *coefficient);
    rest -= *coefficient * it;
  }
  if (linear) {
    if (auto c = sym::toInteger(rest.expand())) {
      f.linear_ = true;
      f.constant_ = *c;
      f.terms_ = std::move(terms);
    }
  }
  return f;
}

}  // namespace cats::sim
