// Every Clang header the frontend uses, included before anything that pulls in GiNaC/CLN:
// CLN defines a function-like macro "Mutable" that breaks clang/AST/Decl.h when it comes first.
// Differences between Clang versions belong here too.
#pragma once

// GCC's -Wnonnull misfires inside RecursiveASTVisitor (LazyOffsetPtr::get at -O2) wherever a
// visitor is instantiated; the state at the header's lines decides, so silence it here only.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wnonnull"
#include <clang/AST/ASTConsumer.h>
#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <clang/AST/ParentMapContext.h>
#include <clang/AST/RecordLayout.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/AST/Stmt.h>
#include <clang/AST/StmtOpenMP.h>
#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/FrontendAction.h>
#include <clang/Lex/Lexer.h>
#include <clang/Tooling/CompilationDatabase.h>
#include <clang/Tooling/Tooling.h>
#include <llvm/Support/raw_ostream.h>
#pragma GCC diagnostic pop
