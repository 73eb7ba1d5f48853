// What the lowering of all translation units shares: the program being built, the symbol
// context, the current unit's source manager, and the global containers by name.
#pragma once

#include "clang_compat.hpp"  // first: see the header
#include "decl_order.hpp"
#include "frontend/frontend.hpp"
#include "ir/ir.hpp"


#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace cats::frontend {

/// What a function returns, as a formula in its integer parameters (return_values.cpp): how a
/// call's value is known where an index helper (`idx(i, j)`) computes a subscript.
struct ReturnSummary {
  std::vector<std::optional<sym::Symbol>> parameters;  // per parameter: its symbol when it is an integer
  sym::Expr value;
  bool argumentsOnly = false;  // no global in "value": the same arguments give the same value
};

class ProgramState {
 public:
  ProgramState(ir::Program& program, sym::Context& ctx, const Options& options)
      : program(program), ctx(ctx), options(options) {}

  ir::Program& program;
  sym::Context& ctx;
  const Options& options;

  void beginUnit(clang::ASTContext& ast) { ast_ = &ast; }
  clang::ASTContext& ast() const { return *ast_; }

  ir::SourceLoc location(clang::SourceLocation l) const;
  std::string sourceText(const clang::Stmt* s) const;
  void diagnose(ir::Severity severity, clang::SourceLocation l, const std::string& message);
  bool isSystem(clang::SourceLocation l) const;

  /// The global container of a file-scope or static-local variable, merged across units by name.
  std::optional<ir::ContainerRef> global(const clang::VarDecl* var);
  /// Integer value of a const global with a constant initialiser.
  std::optional<std::int64_t> constantValue(const clang::VarDecl* var) const;

  /// Return-value summaries of the functions lowered so far, by definition (name@file:line:col,
  /// so a static inline function of a shared header is one entry for every unit).
  std::map<std::string, ReturnSummary> returnSummaries;

 private:
  clang::ASTContext* ast_ = nullptr;
  std::map<std::string, std::size_t> globalsByName_;
  VarMap<std::size_t> staticLocals_;
  std::set<std::string> reported_;  // diagnostics issued, so an expression lowered twice warns once
};

/// Describes an object of type "objectType" as a container (dims, element, fields, size).
/// "vlaSize" turns the size expression of a variable-length array into a formula.
ir::Container describeContainer(const std::string& name, ir::ContainerKind kind, clang::QualType objectType,
                                clang::ASTContext& ast, const std::function<sym::Expr(const clang::Expr*)>& vlaSize,
                                sym::Context& ctx);

/// Byte size of "t", symbolic for variable-length arrays.
sym::Expr typeBytes(clang::QualType t, clang::ASTContext& ast, const std::function<sym::Expr(const clang::Expr*)>& vlaSize,
                    sym::Context& ctx);

}  // namespace cats::frontend
