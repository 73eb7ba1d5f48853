// The fixes of `review --fix-diff` applied to a C source through Clang's source ranges: the
// statement or declaration is found by the location the IR recorded for it, every condition
// for a plainly correct rewrite is checked, and the text is replaced by byte offsets.
#include "clang_tooling.hpp"  // first: see clang_compat.hpp
#include <clang/Frontend/ASTUnit.h>

#include "clang_flags.hpp"
#include "frontend/rewrite.hpp"

#include <algorithm>
#include <filesystem>
#include <memory>

#ifndef CATS_CLANG_DRIVER
#error "CATS_CLANG_DRIVER must be defined by the build"
#endif

namespace cats::frontend {

namespace {

/// The bytes [offset, offset + length) of the file replaced by "text".
struct Replacement {
  unsigned offset = 0;
  unsigned length = 0;
  std::string text;
};

/// Either the replacements of a rewrite or why there is none.
struct Edit {
  std::vector<Replacement> replacements;
  std::string reason;
};

Edit refused(std::string reason) { return Edit{{}, std::move(reason)}; }

/// Every `for` statement and variable declaration of a translation unit.
class Collector : public clang::RecursiveASTVisitor<Collector> {
 public:
  bool VisitForStmt(clang::ForStmt* s) {
    loops.push_back(s);
    return true;
  }
  bool VisitVarDecl(clang::VarDecl* d) {
    vars.push_back(d);
    return true;
  }
  std::vector<const clang::ForStmt*> loops;
  std::vector<const clang::VarDecl*> vars;
};

/* Whether "l" is "want" as the IR records places (the expansion's presumed location). */
bool isAt(const clang::SourceManager& sm, clang::SourceLocation l, const ir::SourceLoc& want) {
  clang::PresumedLoc p = sm.getPresumedLoc(sm.getExpansionLoc(l));
  return p.isValid() && p.getLine() == want.line && p.getColumn() == want.column && displayPath(p.getFilename()) == want.file;
}

/* "s" without the braces of a block holding only one statement. */
const clang::Stmt* soleStatement(const clang::Stmt* s) {
  while (const auto* block = llvm::dyn_cast_or_null<clang::CompoundStmt>(s)) {
    if (block->size() != 1) return s;
    s = block->body_front();
  }
  return s;
}

/* Why "inner" is not reached from "outer" through `for` statements alone ("" when it is). */
std::string nestProblem(const clang::ForStmt* outer, const clang::ForStmt* inner) {
  const clang::Stmt* s = soleStatement(outer->getBody());
  while (s != inner) {
    const auto* loop = llvm::dyn_cast_or_null<clang::ForStmt>(s);
    if (!loop) return "the loops are not perfectly nested `for` statements (something else stands between them)";
    s = soleStatement(loop->getBody());
  }
  return "";
}

/* Why the header of "loop" cannot move as text ("" when it can). */
std::string headerProblem(const clang::ForStmt* loop, clang::ASTContext& ast) {
  const clang::SourceManager& sm = ast.getSourceManager();
  if (!loop->getInit() || !loop->getCond() || !loop->getInc()) return "a loop header lacks its init, condition or increment";
  if (const auto* decl = llvm::dyn_cast<clang::DeclStmt>(loop->getInit()); decl && !decl->isSingleDecl())
    return "a loop header declares more than one variable";
  if (loop->getForLoc().isMacroID() || loop->getLParenLoc().isMacroID() || loop->getRParenLoc().isMacroID())
    return "a loop is written by a macro";
  if (sm.getFileID(loop->getLParenLoc()) != sm.getMainFileID() || sm.getFileID(loop->getRParenLoc()) != sm.getMainFileID())
    return "a loop header is not in the file itself";
  for (const clang::DynTypedNode& parent : ast.getParents(*loop))
    if (parent.get<clang::OMPExecutableDirective>() || parent.get<clang::CapturedStmt>() || parent.get<clang::CapturedDecl>() ||
        parent.get<clang::AttributedStmt>())
      return "a pragma or OpenMP directive is attached to a loop (it would follow the other loop)";
  return "";
}

/* The text between the parentheses of "loop"'s header, as a replaceable piece. */
Replacement headerOf(const clang::ForStmt* loop, const clang::SourceManager& sm) {
  unsigned begin = sm.getFileOffset(loop->getLParenLoc()) + 1;
  unsigned end = sm.getFileOffset(loop->getRParenLoc());
  return Replacement{begin, end - begin, sm.getBufferData(sm.getMainFileID()).substr(begin, end - begin).str()};
}

Edit swapHeaders(const LoopHeaderSwap& swap, const Collector& found, clang::ASTContext& ast) {
  const clang::SourceManager& sm = ast.getSourceManager();
  auto loopAt = [&](const ir::SourceLoc& loc) -> const clang::ForStmt* {
    for (const clang::ForStmt* s : found.loops)
      if (isAt(sm, s->getBeginLoc(), loc)) return s;
    return nullptr;
  };
  const clang::ForStmt* outer = loopAt(swap.outer);
  const clang::ForStmt* inner = loopAt(swap.inner);
  if (!outer || !inner) return refused("no `for` statement at " + (outer ? swap.inner : swap.outer).str());
  if (outer == inner) return refused("the two loops are one statement");
  if (std::string why = nestProblem(outer, inner); !why.empty()) return refused(why);
  for (const clang::ForStmt* loop : {outer, inner})
    if (std::string why = headerProblem(loop, ast); !why.empty()) return refused(why);
  Replacement outerHeader = headerOf(outer, sm), innerHeader = headerOf(inner, sm);
  std::swap(outerHeader.text, innerHeader.text);
  return Edit{{outerHeader, innerHeader}, ""};
}

/* Why "var" cannot simply have its last dimension grown ("" when it can); "otherFiles": the program has more sources. */
std::string declarationProblem(const clang::VarDecl* var, bool otherFiles) {
  std::string name = var->getNameAsString();
  if (var->hasInit()) return "'" + name + "' has an initialiser (its values would move to other elements)";
  if (var->getPreviousDecl() || var->getMostRecentDecl() != var) return "'" + name + "' is declared more than once";
  if (otherFiles && var->isExternallyVisible())
    return "'" + name + "' has external linkage and the program has other files, which may declare it with the old size";
  if (!var->getTypeSourceInfo()) return "the type of '" + name + "' is not written in the source";
  return "";
}

Edit growLastDimension(const LastDimensionGrowth& growth, const Collector& found, clang::ASTContext& ast, bool otherFiles) {
  const clang::SourceManager& sm = ast.getSourceManager();
  auto it = std::find_if(found.vars.begin(), found.vars.end(), [&](const clang::VarDecl* v) { return isAt(sm, v->getLocation(), growth.declaration); });
  if (it == found.vars.end()) return refused("no variable declared at " + growth.declaration.str());
  const clang::VarDecl* var = *it;
  if (std::string why = declarationProblem(var, otherFiles); !why.empty()) return refused(why);
  auto array = var->getTypeSourceInfo()->getTypeLoc().getUnqualifiedLoc().getAs<clang::ConstantArrayTypeLoc>();
  if (!array)
    return refused("'" + var->getNameAsString() +
                   "' is not declared as a constant-size array here (a typedef, a pointer or a variable-length array)");
  int dims = 1;
  for (auto next = array.getElementLoc().getUnqualifiedLoc().getAs<clang::ConstantArrayTypeLoc>(); next;
       next = next.getElementLoc().getUnqualifiedLoc().getAs<clang::ConstantArrayTypeLoc>(), ++dims)
    array = next;
  if (array.getElementLoc().getType()->isArrayType())
    return refused("the last dimension of '" + var->getNameAsString() + "' is declared through a typedef");
  const clang::Expr* size = array.getSizeExpr();
  if (dims < 2 || !size) return refused("'" + var->getNameAsString() + "' is not declared with two or more sizes");
  clang::CharSourceRange range =
      clang::Lexer::makeFileCharRange(clang::CharSourceRange::getTokenRange(size->getSourceRange()), sm, ast.getLangOpts());
  if (range.isInvalid() || sm.getFileID(range.getBegin()) != sm.getMainFileID())
    return refused("the last size of '" + var->getNameAsString() + "' is written inside a macro");
  std::string text = clang::Lexer::getSourceText(range, sm, ast.getLangOpts()).str();
  // "M + 8" is M's value plus 8 only when M is a primary expression after its macros expand: "(M) + 8" otherwise.
  const clang::Expr* bare = size->IgnoreImpCasts();
  bool primary = llvm::isa<clang::IntegerLiteral, clang::ParenExpr, clang::DeclRefExpr>(bare);
  std::string grown = (primary ? text : "(" + text + ")") + " + " + std::to_string(growth.elements);
  unsigned begin = sm.getFileOffset(range.getBegin());
  return Edit{{Replacement{begin, sm.getFileOffset(range.getEnd()) - begin, grown}}, ""};
}

/* "text" with "replacements" (not overlapping) applied. */
std::string applied(std::string text, std::vector<Replacement> replacements) {
  std::sort(replacements.begin(), replacements.end(), [](const Replacement& a, const Replacement& b) { return a.offset > b.offset; });
  for (const Replacement& r : replacements) text.replace(r.offset, r.length, r.text);
  return text;
}

/* The file "rewrite" acts on, as the locations name it. */
const std::string& fileOf(const SourceRewrite& rewrite) {
  if (const auto* swap = std::get_if<LoopHeaderSwap>(&rewrite)) return swap->outer.file;
  return std::get<LastDimensionGrowth>(rewrite).declaration.file;
}

/* The AST of "file", parsed as the frontend parses it; null when it does not parse cleanly. */
std::unique_ptr<clang::ASTUnit> parsed(const Options& options, const std::string& file) {
  clang::tooling::FixedCompilationDatabase database(".", std::vector<std::string>{"-xc", "-std=gnu11"});
  clang::tooling::ClangTool tool(database, {file});
  tool.appendArgumentsAdjuster(
      clang::tooling::getInsertArgumentAdjuster(commonFlags(options, {file}), clang::tooling::ArgumentInsertPosition::END));
  tool.appendArgumentsAdjuster([](const clang::tooling::CommandLineArguments& args, llvm::StringRef) {
    clang::tooling::CommandLineArguments adjusted = args;
    if (!adjusted.empty()) adjusted[0] = CATS_CLANG_DRIVER;
    return adjusted;
  });
  clang::IgnoringDiagConsumer quiet;
  tool.setDiagnosticConsumer(&quiet);
  tool.setPrintErrorMessage(false);
  std::vector<std::unique_ptr<clang::ASTUnit>> units;
  if (tool.buildASTs(units) != 0 || units.size() != 1 || !units.front() || units.front()->getDiagnostics().hasErrorOccurred()) return nullptr;
  return std::move(units.front());
}

}  // namespace

RewrittenSource rewriteSource(const Options& options, const SourceRewrite& rewrite) {
  RewrittenSource out;
  out.file = fileOf(rewrite);
  displayPath(".");  // pins the user's working directory, as buildProgram does
  if (std::filesystem::path(out.file).extension() != ".c") {
    out.reason = out.file + " is not a C source file (the fix would be in a header)";
    return out;
  }
  std::unique_ptr<clang::ASTUnit> unit;
  try {
    unit = parsed(options, out.file);
  } catch (const UsageError& e) {
    out.reason = e.what();
    return out;
  }
  if (!unit) {
    out.reason = out.file + " does not parse cleanly";
    return out;
  }
  clang::ASTContext& ast = unit->getASTContext();
  Collector found;
  found.TraverseDecl(ast.getTranslationUnitDecl());
  bool otherFiles = collectSources(options.paths).size() > 1;
  Edit edit = std::holds_alternative<LoopHeaderSwap>(rewrite) ? swapHeaders(std::get<LoopHeaderSwap>(rewrite), found, ast)
                                                               : growLastDimension(std::get<LastDimensionGrowth>(rewrite), found, ast, otherFiles);
  const clang::SourceManager& sm = ast.getSourceManager();
  out.original = sm.getBufferData(sm.getMainFileID()).str();
  out.reason = edit.reason;
  if (out.reason.empty()) out.rewritten = applied(out.original, edit.replacements);
  return out;
}

}  // namespace cats::frontend
