// Runs Clang over every translation unit and lowers each function definition.
#include "clang_tooling.hpp"  // first: see clang_compat.hpp
#include "frontend/frontend.hpp"
#include "clang_flags.hpp"
#include "compile_database.hpp"
#include "function_builder.hpp"
#include "function_table.hpp"
#include "header_cache.hpp"
#include "link_allocations.hpp"
#include "link_function_pointers.hpp"
#include "program_state.hpp"

#include <filesystem>
#include <functional>
#include <set>
#include <vector>

#ifndef CATS_CLANG_RESOURCE_DIR
#error "CATS_CLANG_RESOURCE_DIR must be defined by the build"
#endif

namespace cats::frontend {

namespace {

/// Collects Clang's errors as our diagnostics (file:line:col: error: message).
class CollectingDiagnostics : public clang::DiagnosticConsumer {
 public:
  explicit CollectingDiagnostics(ir::Program& program) : program_(program) {}

  void HandleDiagnostic(clang::DiagnosticsEngine::Level level, const clang::Diagnostic& info) override {
    clang::DiagnosticConsumer::HandleDiagnostic(level, info);
    if (level < clang::DiagnosticsEngine::Error) return;
    llvm::SmallString<256> message;
    info.FormatDiagnostic(message);
    ir::Diagnostic d{ir::Severity::Error, {}, message.str().str()};
    if (info.hasSourceManager() && info.getLocation().isValid()) {
      const auto& sm = info.getSourceManager();
      clang::PresumedLoc p = sm.getPresumedLoc(sm.getExpansionLoc(info.getLocation()));
      if (p.isValid()) d.loc = ir::SourceLoc{displayPath(p.getFilename()), p.getLine(), p.getColumn()};
    }
    program_.diagnostics.push_back(std::move(d));
  }

 private:
  ir::Program& program_;
};

/// Lowers the function definitions of one translation unit, unless Clang reported errors.
class LoweringConsumer : public clang::ASTConsumer {
 public:
  LoweringConsumer(ProgramState& state, FunctionTable& table) : state_(state), table_(table) {}

  /* A non-const global integer with a constant initialiser: a parameter with a default value. */
  void recordDefault(const clang::VarDecl* var, clang::ASTContext& ast) {
    if (!var->getType()->isIntegralOrEnumerationType() || var->getType().isConstQualified()) return;
    const clang::Expr* init = var->getInit();
    clang::Expr::EvalResult result;
    if (init && init->EvaluateAsInt(result, ast)) state_.program.defaults[var->getNameAsString()] = result.Val.getInt().getExtValue();
  }

  void HandleTranslationUnit(clang::ASTContext& ast) override {
    state_.beginUnit(ast);
    const auto& sm = ast.getSourceManager();
    std::string file = displayPath(sm.getFileEntryForID(sm.getMainFileID())->getName().str());
    if (ast.getDiagnostics().hasErrorOccurred()) {
      state_.program.diagnostics.push_back(ir::Diagnostic{
          ir::Severity::Error, ir::SourceLoc{file, 0, 0},
          "file skipped because of the errors above; the other files are analysed and the result is approximate"});
      return;
    }
    state_.program.files.push_back(file);
    // The unit's own declarations: noload_decls leaves a precompiled header's system
    // declarations unread, and the parent map (allocatedElementType) then covers these alone.
    std::vector<clang::Decl*> own;
    for (clang::Decl* decl : ast.getTranslationUnitDecl()->noload_decls())
      if (!state_.isSystem(decl->getLocation())) own.push_back(decl);
    ast.setTraversalScope(own);
    for (clang::Decl* decl : own) {
      if (auto* var = clang::dyn_cast<clang::VarDecl>(decl)) {
        recordDefault(var, ast);
        if (var->getType()->isArrayType() || var->getType()->isPointerType() || var->getType()->isRecordType() ||
            (state_.options.traceScalars && !var->getType().isConstQualified()))
          state_.global(var);
        continue;
      }
      auto* function = clang::dyn_cast<clang::FunctionDecl>(decl);
      if (!function || !function->doesThisDeclarationHaveABody()) continue;
      std::string name = function->getNameAsString();
      if (table_.defineAgain(file, name, state_.location(function->getLocation()))) continue;
      FunctionBuilder builder(state_, ast, *function);
      state_.program.functions.push_back(builder.build());
      table_.define(file, name, !function->isExternallyVisible());
    }
  }

 private:
  ProgramState& state_;
  FunctionTable& table_;
};

/// Runs the lowering on each file, reporting progress before and diagnostics after it.
class LoweringAction : public clang::ASTFrontendAction {
 public:
  LoweringAction(ProgramState& state, FunctionTable& table, std::function<void()> done)
      : state_(state), table_(table), done_(std::move(done)) {}
  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance&, llvm::StringRef) override {
    return std::make_unique<LoweringConsumer>(state_, table_);
  }
  void EndSourceFileAction() override { done_(); }

 private:
  ProgramState& state_;
  FunctionTable& table_;
  std::function<void()> done_;
};

class LoweringFactory : public clang::tooling::FrontendActionFactory {
 public:
  LoweringFactory(ProgramState& state, FunctionTable& table, const std::vector<std::string>& files)
      : state_(state), table_(table), files_(files) {
    if (state.options.headerCache) headerCache_.emplace(*state.options.headerCache);
  }

  bool runInvocation(std::shared_ptr<clang::CompilerInvocation> invocation, clang::FileManager* files,
                     std::shared_ptr<clang::PCHContainerOperations> pch, clang::DiagnosticConsumer* diagnostics) override {
    if (headerCache_) headerCache_->prepare(*invocation, pch);
    return clang::tooling::FrontendActionFactory::runInvocation(std::move(invocation), files, std::move(pch), diagnostics);
  }

  std::unique_ptr<clang::FrontendAction> create() override {
    ++started_;
    if (state_.options.onUnit && started_ <= files_.size())
      state_.options.onUnit(started_, files_.size(), displayPath(files_[started_ - 1]));
    return std::make_unique<LoweringAction>(state_, table_, [this] { flush(); });
  }

  /// Hands the diagnostics not reported yet to the caller's callback.
  void flush() {
    auto& all = state_.program.diagnostics;
    for (; flushed_ < all.size(); ++flushed_)
      if (state_.options.onDiagnostic) state_.options.onDiagnostic(all[flushed_]);
  }

 private:
  ProgramState& state_;
  FunctionTable& table_;
  const std::vector<std::string>& files_;
  std::optional<HeaderCache> headerCache_;
  std::size_t started_ = 0;
  std::size_t flushed_ = 0;
};


/* The translation units to analyse and how to compile each: -p's database or the given paths. */
std::unique_ptr<clang::tooling::CompilationDatabase> loadDatabase(const Options& options, std::vector<std::string>& files) {
  if (options.compileCommandsDir) {
    std::vector<std::string> listed;
    auto db = readCompileCommands(*options.compileCommandsDir, listed);
    std::vector<std::string> wanted;
    for (const auto& f : options.paths.empty() ? std::vector<std::string>{} : collectSources(options.paths))
      wanted.push_back(std::filesystem::absolute(f).lexically_normal().string());
    for (const auto& f : listed)
      if (wanted.empty() || std::find(wanted.begin(), wanted.end(), f) != wanted.end()) files.push_back(f);
    if (files.empty()) throw InputError("compile_commands.json in '" + *options.compileCommandsDir + "' lists no .c file to analyse");
    return db;
  }
  files = collectSources(options.paths);
  if (files.empty()) throw InputError("no .c file to analyse");
  return std::make_unique<clang::tooling::FixedCompilationDatabase>(".", std::vector<std::string>{"-xc", "-std=gnu11"});
}

}  // namespace

std::vector<std::string> commonFlags(const Options& options, const std::vector<std::string>& files) {
  // -fno-caret-diagnostics also stops Clang's own "N errors generated." lines: ours are streamed.
  // NOLINTNEXTLINE(bugprone-suspicious-missing-comma): "-resource-dir=" and the macro are one argument.
  std::vector<std::string> flags = {"-fopenmp", "-resource-dir=" CATS_CLANG_RESOURCE_DIR, "-Wno-everything",
                                    "-fno-color-diagnostics", "-fno-caret-diagnostics"};
  for (const auto& dir : options.includeDirs) flags.push_back("-I" + dir);
  std::vector<std::string> valued;
  for (const auto& d : options.defines)
    if (d.value) valued.push_back(d.name);
  std::set<std::string> macros = namesUsedAsMacros(valued, files, options.includeDirs);
  for (const auto& d : options.defines) {
    // A string literal can only be meant for the preprocessor (a build system's -DPACKAGE="name").
    bool stringValue = d.value && d.value->size() >= 2 && d.value->front() == '"' && d.value->back() == '"';
    if (!d.value || macros.count(d.name) || stringValue) flags.push_back("-D" + d.name + (d.value ? "=" + *d.value : ""));
    else if (!d.number)
      throw UsageError("-D " + d.name + "=" + *d.value + ": the value is not an integer, and " + d.name +
                       " is not a macro the sources define or test, so it could only bind a symbol");
  }
  return flags;
}

ir::Program buildProgram(const Options& options, sym::Context& ctx) {
  std::vector<std::string> files;
  auto database = loadDatabase(options, files);
  ir::Program program;
  ProgramState state(program, ctx, options);
  FunctionTable table(program);
  displayPath(".");  // pins the user's working directory before Clang changes to each command's directory
  clang::tooling::ClangTool tool(*database, files);
  tool.appendArgumentsAdjuster(clang::tooling::getInsertArgumentAdjuster(commonFlags(options, files), clang::tooling::ArgumentInsertPosition::END));
  tool.appendArgumentsAdjuster([](const clang::tooling::CommandLineArguments& args, llvm::StringRef) {
    clang::tooling::CommandLineArguments adjusted = args;
    if (!adjusted.empty()) adjusted[0] = CATS_CLANG_DRIVER;
    return adjusted;
  });
  CollectingDiagnostics diagnostics(program);
  tool.setDiagnosticConsumer(&diagnostics);
  tool.setPrintErrorMessage(false);
  LoweringFactory factory(state, table, files);
  tool.run(&factory);
  table.resolve(options.entries);
  modelProgramArguments(program);
  linkParameterCalls(program);
  linkAllocationWrappers(program, ctx);
  factory.flush();
  return program;
}

}  // namespace cats::frontend
