// What an assignment stores, as far as the compilers' memset/memcpy idioms care: a constant
// (and whether all its bytes are one byte), or a plain copy of another object of the same type.
#include "clang_compat.hpp"  // first: see the header
#include "function_builder.hpp"

#include <llvm/ADT/APInt.h>

namespace cats::frontend {

namespace {

/* The byte every byte of "bits" equals, if there is one. */
std::optional<std::uint8_t> splatByte(const llvm::APInt& bits) {
  if (bits.getBitWidth() % 8 != 0 || bits.getBitWidth() == 0) return std::nullopt;
  auto first = static_cast<std::uint8_t>(bits.extractBitsAsZExtValue(8, 0));
  for (unsigned at = 8; at < bits.getBitWidth(); at += 8)
    if (bits.extractBitsAsZExtValue(8, at) != first) return std::nullopt;
  return first;
}

/* The bits "value" has once stored as "type" (integers, floating point, null pointers). */
std::optional<llvm::APInt> storedBits(const clang::APValue& value, clang::QualType type, clang::ASTContext& ast) {
  auto width = static_cast<unsigned>(ast.getTypeSize(type));
  if (value.isInt()) return value.getInt().extOrTrunc(width);
  if (value.isFloat()) {
    llvm::APInt bits = value.getFloat().bitcastToAPInt();
    if (bits.getBitWidth() == width) return bits;
  }
  if (value.isLValue() && value.isNullPointer() && !value.getLValueBase()) return llvm::APInt(width, 0);
  return std::nullopt;
}

}  // namespace

ir::StoredValue storedValueOf(const clang::Expr* rhs, clang::QualType lhsType, clang::ASTContext& ast) {
  ir::StoredValue stored;
  clang::QualType type = lhsType.getCanonicalType().getUnqualifiedType();
  if (!type->isScalarType() || rhs->isValueDependent() || rhs->HasSideEffects(ast)) return stored;
  clang::Expr::EvalResult result;
  if (rhs->EvaluateAsRValue(result, ast) && !result.HasSideEffects) {
    if (auto bits = storedBits(result.Val, type, ast)) {
      stored.kind = ir::StoredValue::Kind::Constant;
      stored.splat = splatByte(*bits);
    }
    return stored;
  }
  const auto* load = clang::dyn_cast<clang::ImplicitCastExpr>(rhs->IgnoreParens());
  if (load && load->getCastKind() == clang::CK_LValueToRValue &&
      load->getSubExpr()->getType().getCanonicalType().getUnqualifiedType() == type)
    stored.kind = ir::StoredValue::Kind::Copy;
  return stored;
}

}  // namespace cats::frontend
