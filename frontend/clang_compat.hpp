// The Clang AST headers the frontend uses, included before anything that pulls in GiNaC/CLN:
// CLN defines a function-like macro "Mutable" that breaks clang/AST/Decl.h when it comes first.
// Differences between Clang versions belong here too. Only the AST's headers: the driver's and
// tooling's, which double a file's parse, are in clang_tooling.hpp for the files that run Clang.
#pragma once

// GCC's -Wnonnull misfires inside RecursiveASTVisitor (LazyOffsetPtr::get at -O2) wherever a
// visitor is instantiated; the state at the header's lines decides, so silence it here only.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wnonnull"
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
#include <clang/Lex/Lexer.h>
#include <llvm/Support/raw_ostream.h>
#pragma GCC diagnostic pop
