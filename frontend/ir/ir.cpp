// Small helpers of the IR value types.
#include "ir/ir.hpp"

#include <tuple>

namespace cats::ir {

std::string SourceLoc::str() const {
  return file + ":" + std::to_string(line) + ":" + std::to_string(column);
}

bool SourceLoc::operator<(const SourceLoc& o) const {
  return std::tie(file, line, column) < std::tie(o.file, o.line, o.column);
}

std::string_view toString(ContainerKind kind) {
  switch (kind) {
    case ContainerKind::Global: return "global";
    case ContainerKind::Static: return "static";
    case ContainerKind::Stack: return "stack";
    case ContainerKind::Heap: return "heap";
    case ContainerKind::Parameter: return "parameter";
    case ContainerKind::Pointee: return "pointee";
  }
  return "global";
}

std::string_view toString(AccessMode mode) {
  switch (mode) {
    case AccessMode::Read: return "read";
    case AccessMode::Write: return "write";
  }
  return "read";
}

std::string_view toString(StoredValue::Kind kind) {
  switch (kind) {
    case StoredValue::Kind::Unknown: return "unknown";
    case StoredValue::Kind::Constant: return "constant";
    case StoredValue::Kind::Copy: return "copy";
  }
  return "unknown";
}

std::string_view toString(AllocFunction f) {
  switch (f) {
    case AllocFunction::Malloc: return "malloc";
    case AllocFunction::Calloc: return "calloc";
    case AllocFunction::Realloc: return "realloc";
    case AllocFunction::AlignedAlloc: return "aligned_alloc";
    case AllocFunction::PosixMemalign: return "posix_memalign";
    case AllocFunction::StackArray: return "stack";
    case AllocFunction::StaticArray: return "static";
  }
  return "malloc";
}

std::string_view toString(Severity s) {
  switch (s) {
    case Severity::Note: return "note";
    case Severity::Warning: return "warning";
    case Severity::Error: return "error";
  }
  return "error";
}

std::string Diagnostic::str() const {
  std::string where = loc.file.empty() ? "cats-static" : loc.str();
  return where + ": " + std::string(toString(severity)) + ": " + message;
}

std::string_view toString(CarriedScalar::Kind kind) {
  switch (kind) {
    case CarriedScalar::Kind::IntegerReduction: return "integer-reduction";
    case CarriedScalar::Kind::FloatReduction: return "float-reduction";
    case CarriedScalar::Kind::FirstOrder: return "first-order";
    case CarriedScalar::Kind::Recurrence: return "recurrence";
  }
  return "recurrence";
}

std::optional<CarriedScalar::Kind> parseCarriedKind(std::string_view text) {
  for (auto kind : {CarriedScalar::Kind::IntegerReduction, CarriedScalar::Kind::FloatReduction, CarriedScalar::Kind::FirstOrder,
                    CarriedScalar::Kind::Recurrence})
    if (toString(kind) == text) return kind;
  return std::nullopt;
}

static bool isIncreasing(const Loop& loop) {
  switch (loop.comparison) {
    case Comparison::Less:
    case Comparison::LessEqual: return true;
    case Comparison::Greater:
    case Comparison::GreaterEqual: return false;
    case Comparison::NotEqual: {
      auto step = sym::toInteger(loop.step);
      return !step || *step > 0;
    }
  }
  return true;
}

sym::Expr Loop::end() const {
  switch (comparison) {
    case Comparison::LessEqual: return bound + 1;
    case Comparison::GreaterEqual: return bound - 1;
    case Comparison::Less:
    case Comparison::Greater:
    case Comparison::NotEqual: return bound;
  }
  return bound;
}

sym::Expr Loop::tripCount() const {
  sym::Expr distance = isIncreasing(*this) ? end() - start : start - end();
  sym::Expr stride = isIncreasing(*this) ? step : -step;
  if (stride.is_equal(1)) return distance.expand();
  return sym::idiv((distance + stride - 1).expand(), stride);
}

const Function* Program::findFunction(const std::string& name) const {
  for (const auto& f : functions)
    if (f.name == name) return &f;
  return nullptr;
}

}  // namespace cats::ir
