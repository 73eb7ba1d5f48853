// Locations, source text, diagnostics and global containers shared by all functions.
#include "clang_compat.hpp"  // first: see the header
#include "program_state.hpp"


namespace cats::frontend {

ir::SourceLoc ProgramState::location(clang::SourceLocation l) const {
  if (!ast_ || l.isInvalid()) return {};
  const auto& sm = ast_->getSourceManager();
  clang::PresumedLoc p = sm.getPresumedLoc(sm.getExpansionLoc(l));
  if (p.isInvalid()) return {};
  return ir::SourceLoc{displayPath(p.getFilename()), p.getLine(), p.getColumn()};
}

std::string ProgramState::sourceText(const clang::Stmt* s) const {
  const auto& sm = ast_->getSourceManager();
  auto range = sm.getExpansionRange(s->getSourceRange());
  return clang::Lexer::getSourceText(range, sm, ast_->getLangOpts()).str();
}

void ProgramState::diagnose(ir::Severity severity, clang::SourceLocation l, const std::string& message) {
  ir::Diagnostic d{severity, location(l), message};
  if (reported_.insert(d.str()).second) program.diagnostics.push_back(std::move(d));
}

bool ProgramState::isSystem(clang::SourceLocation l) const {
  return l.isValid() && ast_->getSourceManager().isInSystemHeader(ast_->getSourceManager().getExpansionLoc(l));
}

std::optional<std::int64_t> ProgramState::constantValue(const clang::VarDecl* var) const {
  if (!var->getType().isConstQualified() || !var->getType()->isIntegralOrEnumerationType()) return std::nullopt;
  const clang::VarDecl* definition = var->getDefinition() ? var->getDefinition() : var;
  const clang::Expr* init = definition->getAnyInitializer();
  clang::Expr::EvalResult result;
  if (!init || !init->EvaluateAsInt(result, *ast_)) return std::nullopt;
  return result.Val.getInt().getExtValue();
}

std::optional<ir::ContainerRef> ProgramState::global(const clang::VarDecl* var) {
  bool isStaticLocal = var->isStaticLocal();
  if (!var->hasGlobalStorage()) return std::nullopt;
  if (isStaticLocal) {
    if (auto it = staticLocals_.find(var); it != staticLocals_.end())
      return ir::ContainerRef{ir::ContainerRef::Scope::Global, it->second};
  } else if (auto it = globalsByName_.find(var->getNameAsString()); it != globalsByName_.end()) {
    ir::Container& existing = program.globals[it->second];
    if (var->isThisDeclarationADefinition() == clang::VarDecl::Definition && existing.loc.file.empty()) {
      existing.loc = location(var->getLocation());
    }
    return ir::ContainerRef{ir::ContainerRef::Scope::Global, it->second};
  }
  clang::QualType type = var->getType();
  ir::ContainerKind kind = isStaticLocal ? ir::ContainerKind::Static : ir::ContainerKind::Global;
  if (type->isPointerType()) {
    kind = ir::ContainerKind::Pointee;
    type = type->getPointeeType();
  }
  auto noVla = [&](const clang::Expr*) -> sym::Expr { return ctx.freshSymbol("unknown_extent", sym::SymbolKind::Unknown); };
  std::string name = var->getNameAsString();
  ir::Container c = describeContainer(name, kind, type, *ast_, noVla, ctx);
  if (kind == ir::ContainerKind::Pointee) {
    c.dims.clear();
    c.isScalar = false;
    c.sizeBytes = ctx.freshSymbol("unknown_size_" + name, sym::SymbolKind::Unknown, "memory behind global pointer " + name);
  }
  c.alignment = std::max<std::int64_t>(c.alignment, ast_->getDeclAlign(var).getQuantity());
  c.symbol = ctx.symbol(name, sym::SymbolKind::Container);
  c.name = c.symbol.get_name();
  bool isDefinition = var->isThisDeclarationADefinition() != clang::VarDecl::DeclarationOnly;
  if (isDefinition) c.loc = location(var->getLocation());
  std::size_t index = program.globals.size();
  program.globals.push_back(std::move(c));
  if (isStaticLocal) staticLocals_[var] = index;
  else globalsByName_[name] = index;
  return ir::ContainerRef{ir::ContainerRef::Scope::Global, index};
}

}  // namespace cats::frontend
