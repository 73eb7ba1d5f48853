// Shapes of C types as containers: extents, element type, struct fields from Clang's layout.
#include "clang_compat.hpp"  // first: see the header
#include "program_state.hpp"


namespace cats::frontend {

/* The type name users read: no qualifiers, "struct p" kept. */
static std::string typeName(clang::QualType t, clang::ASTContext& ast) {
  clang::PrintingPolicy policy(ast.getLangOpts());
  policy.SuppressTagKeyword = false;
  return t.getUnqualifiedType().getAsString(policy);
}

/* Appends the fields of record type "record" at "base" bytes, named below "prefix". */
static void flattenFields(const clang::RecordDecl* record, const std::string& prefix, std::int64_t base,
                          clang::ASTContext& ast, std::vector<ir::Field>& out) {
  if (!record || !record->getDefinition()) return;
  record = record->getDefinition();
  const auto& layout = ast.getASTRecordLayout(record);
  for (const clang::FieldDecl* field : record->fields()) {
    std::string name = prefix.empty() ? field->getNameAsString() : prefix + "." + field->getNameAsString();
    std::int64_t offset = base + static_cast<std::int64_t>(layout.getFieldOffset(field->getFieldIndex()) / 8);
    clang::QualType type = field->getType();
    if (const auto* nested = type->getAsRecordDecl(); nested && !type->isArrayType()) {
      flattenFields(nested, name, offset, ast, out);
      continue;
    }
    std::int64_t bytes = type->isIncompleteType() ? 0 : ast.getTypeSizeInChars(type).getQuantity();
    out.push_back(ir::Field{name, offset, bytes, typeName(type, ast)});
  }
}

sym::Expr typeBytes(clang::QualType t, clang::ASTContext& ast, const std::function<sym::Expr(const clang::Expr*)>& vlaSize,
                    sym::Context& ctx) {
  t = t.getCanonicalType();
  if (const auto* vla = ast.getAsVariableArrayType(t))
    return vlaSize(vla->getSizeExpr()) * typeBytes(vla->getElementType(), ast, vlaSize, ctx);
  if (const auto* constant = ast.getAsConstantArrayType(t))
    return sym::Expr(static_cast<long>(constant->getSize().getZExtValue())) * typeBytes(constant->getElementType(), ast, vlaSize, ctx);
  if (t->isIncompleteType() || t->isFunctionType()) return ctx.freshSymbol("unknown_size", sym::SymbolKind::Unknown, "size of an incomplete type");
  if (t->isVoidType()) return 1;
  return static_cast<long>(ast.getTypeSizeInChars(t).getQuantity());
}

ir::Container describeContainer(const std::string& name, ir::ContainerKind kind, clang::QualType objectType,
                                clang::ASTContext& ast, const std::function<sym::Expr(const clang::Expr*)>& vlaSize,
                                sym::Context& ctx) {
  ir::Container c;
  c.name = name;
  c.kind = kind;
  clang::QualType t = objectType;
  bool sizeKnown = true;
  while (t->isArrayType()) {
    const clang::ArrayType* array = ast.getAsArrayType(t);
    if (const auto* constant = llvm::dyn_cast<clang::ConstantArrayType>(array)) {
      c.dims.emplace_back(static_cast<long>(constant->getSize().getZExtValue()));
    } else if (const auto* vla = llvm::dyn_cast<clang::VariableArrayType>(array)) {
      c.dims.push_back(vlaSize(vla->getSizeExpr()));
    } else {
      c.dims.push_back(ctx.freshSymbol("unknown_extent", sym::SymbolKind::Unknown, "extent of " + name));
      sizeKnown = false;
    }
    t = array->getElementType();
  }
  c.isScalar = c.dims.empty();
  c.isRestrict = objectType.isRestrictQualified();
  c.elementType = typeName(t, ast);
  c.elementBytes = t->isIncompleteType() || t->isVoidType() ? 1 : ast.getTypeSizeInChars(t).getQuantity();
  c.alignment = t->isIncompleteType() || t->isVoidType() ? 1 : ast.getTypeAlignInChars(t).getQuantity();
  if (const auto* record = t->getAsRecordDecl()) flattenFields(record, "", 0, ast, c.fields);
  sym::Expr size = c.elementBytes;
  for (const auto& d : c.dims) size *= d;
  c.sizeBytes = sizeKnown ? size.expand() : sym::Expr(ctx.freshSymbol("unknown_size", sym::SymbolKind::Unknown, "size of " + name));
  return c;
}

}  // namespace cats::frontend
