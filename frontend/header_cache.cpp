// Precompiled system-header preambles kept between runs: parsing glibc's headers is two thirds
// of a small program's analysis (docs/decisions.md, "Header cache"). The steps mirror Clang's
// PrecompiledPreamble (Build and configurePreamble), with the PCH kept in a directory.
#include "header_cache.hpp"

#include <clang/Basic/Version.h>
#include <clang/Frontend/FrontendActions.h>
#include <clang/Frontend/Utils.h>
#include <clang/Lex/HeaderSearch.h>
#include <clang/Lex/PreprocessorOptions.h>
#include <clang/Lex/Preprocessor.h>
#include <clang/Serialization/ASTWriter.h>
#include <clang/Serialization/InMemoryModuleCache.h>
#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/SHA1.h>

#include <sys/stat.h>
#include <unistd.h>
#include <utime.h>

#include <algorithm>
#include <deque>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

namespace cats::frontend {

namespace {

constexpr const char* kFormat = "cats-static header cache 1";
constexpr std::size_t kMaxEntries = 256;  // about 1 MB each; the least recently used go first

bool startsWith(std::string_view text, std::size_t at, std::string_view word) { return text.substr(at, word.size()) == word; }

/* One `#include <...>` line from "at" (the '#'): the offset after its newline, or 0. */
std::size_t includeLine(std::string_view text, std::size_t at) {
  auto skipBlanks = [&](std::size_t p) {
    while (p < text.size() && (text[p] == ' ' || text[p] == '\t')) ++p;
    return p;
  };
  std::size_t p = skipBlanks(at + 1);
  if (!startsWith(text, p, "include")) return 0;
  p = skipBlanks(p + 7);
  if (p >= text.size() || text[p] != '<') return 0;
  std::size_t close = text.find_first_of(">\n", p);
  if (close == std::string_view::npos || text[close] != '>') return 0;
  p = skipBlanks(close + 1);
  if (startsWith(text, p, "//")) p = text.find('\n', p);
  if (p < text.size() && text[p] == '\r') ++p;
  if (p >= text.size() || text[p] != '\n') return 0;
  std::string_view line = text.substr(at, p - at);
  if (line.find('\\') != std::string_view::npos || line.find("/*") != std::string_view::npos) return 0;
  return p + 1;
}

struct FileStamp {
  bool directory = false;
  std::uint64_t size = 0;
  std::int64_t modified = 0;
  std::string path;
};

std::optional<FileStamp> stampOf(const std::string& path, bool directory) {
  struct stat s {};
  if (::stat(path.c_str(), &s) != 0) return std::nullopt;
  FileStamp stamp;
  stamp.directory = directory;
  stamp.size = directory ? 0 : static_cast<std::uint64_t>(s.st_size);
  stamp.modified = static_cast<std::int64_t>(s.st_mtim.tv_sec) * 1000000000 + s.st_mtim.tv_nsec;
  stamp.path = path;
  return stamp;
}

/* Whether every file and directory the preamble was built from is as it was. */
bool stampsHold(const std::string& stampsPath) {
  std::ifstream in(stampsPath);
  std::string line;
  if (!std::getline(in, line) || line != kFormat) return false;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string kind;
    FileStamp want;
    fields >> kind >> want.size >> want.modified;
    fields.get();
    std::getline(fields, want.path);
    if (!fields && !fields.eof()) return false;
    auto now = stampOf(want.path, kind == "dir");
    if (!now || now->size != want.size || now->modified != want.modified) return false;
  }
  return true;
}

/* Keeps the dependencies of system headers too (a preamble is mostly those). */
class AllDependencies : public clang::DependencyCollector {
 public:
  bool needSystemDependencies() override { return true; }
};

/* The PCH writer of a preamble; notes any declaration outside a system header. */
class PreambleWriter : public clang::PCHGenerator {
 public:
  PreambleWriter(const clang::Preprocessor& pp, clang::InMemoryModuleCache& cache, std::shared_ptr<clang::PCHBuffer> buffer,
                 bool& userDeclarations)
      : clang::PCHGenerator(pp, cache, "", "", std::move(buffer), {}, /*AllowASTWithErrors=*/false),
        sources_(pp.getSourceManager()),
        userDeclarations_(userDeclarations) {}

  bool HandleTopLevelDecl(clang::DeclGroupRef group) override {
    for (const clang::Decl* d : group)
      if (!sources_.isInSystemHeader(sources_.getExpansionLoc(d->getLocation()))) userDeclarations_ = true;
    return true;
  }

 private:
  const clang::SourceManager& sources_;
  bool& userDeclarations_;
};

class PreambleAction : public clang::ASTFrontendAction {
 public:
  PreambleAction(std::shared_ptr<clang::PCHBuffer> buffer, bool& userDeclarations)
      : buffer_(std::move(buffer)), userDeclarations_(userDeclarations) {}

  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance& ci, llvm::StringRef) override {
    return std::make_unique<PreambleWriter>(ci.getPreprocessor(), ci.getModuleCache(), buffer_, userDeclarations_);
  }
  bool hasCodeCompletionSupport() const override { return false; }
  bool hasASTFileSupport() const override { return false; }
  clang::TranslationUnitKind getTranslationUnitKind() override { return clang::TU_Prefix; }

 private:
  std::shared_ptr<clang::PCHBuffer> buffer_;
  bool& userDeclarations_;
};

std::string keyOf(const clang::CompilerInvocation& invocation, const std::string& directory, llvm::StringRef preamble) {
  llvm::SHA1 hash;
  auto add = [&](llvm::StringRef s) {
    hash.update(s);
    hash.update(llvm::StringRef("\0", 1));
  };
  add(kFormat);
  add(clang::getClangFullVersion());
  add(directory);
  add(invocation.getFrontendOpts().Inputs[0].getFile());
  // The compiler's own arguments (-D, -I, -std, ...), as the driver made them: with what the
  // environment says (CPATH, C_INCLUDE_PATH) and what it found installed (GCC's directories).
  std::deque<std::string> strings;
  llvm::SmallVector<const char*, 64> cc1;
  invocation.generateCC1CommandLine(cc1, [&](const llvm::Twine& t) { return strings.emplace_back(t.str()).c_str(); });
  for (const char* a : cc1) add(a);
  add(preamble);
  return llvm::toHex(hash.final(), /*LowerCase=*/true);
}

bool writeAtomically(const std::string& path, llvm::StringRef bytes) {
  std::string temporary = path + ".tmp." + std::to_string(::getpid());
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!out.flush()) {
      std::error_code ignored;
      std::filesystem::remove(temporary, ignored);
      return false;
    }
  }
  std::error_code error;
  std::filesystem::rename(temporary, path, error);
  return !error;
}

/* Keeps the kMaxEntries most recently used preambles (their PCH files' times: touched on use),
   the notes of unusable ones counted alike. */
void evictOldest(const std::string& directory) {
  std::error_code error;
  std::vector<std::pair<std::filesystem::file_time_type, std::filesystem::path>> entries;
  for (const auto& e : std::filesystem::directory_iterator(directory, error))
    if (e.path().extension() == ".pch" || e.path().extension() == ".none") entries.emplace_back(e.last_write_time(error), e.path());
  if (entries.size() <= kMaxEntries) return;
  std::sort(entries.begin(), entries.end());
  for (std::size_t k = 0; k + kMaxEntries < entries.size(); ++k) {
    std::filesystem::remove(entries[k].second, error);
    std::filesystem::path stamps = entries[k].second;
    std::filesystem::remove(stamps.replace_extension(".stamps"), error);
  }
}

enum class Built { Yes, Unusable, Failed };

/* Builds the preamble of "invocation"'s main file (its first "size" bytes) into "pchPath" and
   its stamps file. Unusable: it has errors or declares something outside a system header (then
   "nonePath" takes the stamps, so that the next runs do not try again while they hold). */
Built buildPreamble(const clang::CompilerInvocation& invocation, const llvm::MemoryBuffer& main, std::size_t size,
                    const std::shared_ptr<clang::PCHContainerOperations>& pch, const std::string& pchPath, const std::string& stampsPath,
                    const std::string& nonePath) {
  auto preambleInvocation = std::make_shared<clang::CompilerInvocation>(invocation);
  clang::FrontendOptions& frontend = preambleInvocation->getFrontendOpts();
  clang::PreprocessorOptions& preprocessor = preambleInvocation->getPreprocessorOpts();
  frontend.ProgramAction = clang::frontend::GeneratePCH;
  frontend.OutputFile.clear();
  preprocessor.PrecompiledPreambleBytes = {0, false};
  preprocessor.GeneratePreamble = true;  // records the conditional stack, as Clang's own preambles do
  const std::string mainPath = frontend.Inputs[0].getFile().str();
  preprocessor.addRemappedFile(mainPath, llvm::MemoryBuffer::getMemBufferCopy(main.getBuffer().substr(0, size), mainPath).release());

  clang::CompilerInstance compiler(pch);
  compiler.setInvocation(std::move(preambleInvocation));
  clang::IgnoringDiagConsumer quiet;
  compiler.createDiagnostics(&quiet, /*ShouldOwnClient=*/false);
  if (!compiler.createTarget()) return Built::Failed;
  compiler.createFileManager();
  compiler.createSourceManager(compiler.getFileManager());
  auto dependencies = std::make_shared<AllDependencies>();
  compiler.addDependencyCollector(dependencies);
  compiler.getLangOpts().CompilingPCH = true;

  auto buffer = std::make_shared<clang::PCHBuffer>();
  bool userDeclarations = false;
  PreambleAction action(buffer, userDeclarations);
  if (!action.BeginSourceFile(compiler, compiler.getFrontendOpts().Inputs[0])) return Built::Failed;
  if (llvm::Error error = action.Execute()) {
    llvm::consumeError(std::move(error));
    action.EndSourceFile();
    return Built::Failed;
  }
  std::vector<std::string> searchDirs;
  const clang::HeaderSearch& search = compiler.getPreprocessor().getHeaderSearchInfo();
  for (auto dir = search.search_dir_begin(); dir != search.search_dir_end(); ++dir)
    if (dir->isNormalDir()) searchDirs.push_back(dir->getName().str());
  const bool unusable = compiler.getDiagnostics().hasErrorOccurred() || userDeclarations;
  action.EndSourceFile();
  if (!unusable && !buffer->IsComplete) return Built::Failed;

  // Every file read (but the main file) and every search directory: a header added in front of
  // one that was found changes its directory's time.
  std::ostringstream stamps;
  stamps << kFormat << '\n';
  std::error_code error;
  const auto mainFile = std::filesystem::weakly_canonical(mainPath, error);
  for (const auto& file : dependencies->getDependencies()) {
    if (std::filesystem::weakly_canonical(file, error) == mainFile) continue;
    auto stamp = stampOf(file, false);
    if (!stamp) return Built::Failed;
    stamps << "file " << stamp->size << ' ' << stamp->modified << ' ' << stamp->path << '\n';
  }
  for (const auto& dir : searchDirs)
    if (auto stamp = stampOf(dir, true)) stamps << "dir " << stamp->size << ' ' << stamp->modified << ' ' << stamp->path << '\n';
  if (unusable) return writeAtomically(nonePath, stamps.str()) ? Built::Unusable : Built::Failed;
  // The stamps first: a PCH that exists always has its stamps.
  return writeAtomically(stampsPath, stamps.str()) && writeAtomically(pchPath, llvm::StringRef(buffer->Data.data(), buffer->Data.size()))
             ? Built::Yes
             : Built::Failed;
}

}  // namespace

std::size_t systemIncludePreamble(std::string_view text) {
  if (startsWith(text, 0, "\xEF\xBB\xBF")) return 0;  // a byte-order mark: the lexer skips it first
  std::size_t bound = 0;
  std::size_t p = 0;
  while (p < text.size()) {
    const char c = text[p];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
      ++p;
    } else if (startsWith(text, p, "//")) {
      std::size_t end = text.find('\n', p);
      if (end == std::string_view::npos || text.substr(p, end - p).find('\\') != std::string_view::npos) break;
      p = end + 1;
    } else if (startsWith(text, p, "/*")) {
      std::size_t end = text.find("*/", p + 2);
      if (end == std::string_view::npos) break;
      p = end + 2;
    } else if (c == '#') {
      std::size_t next = includeLine(text, p);
      if (next == 0) break;
      bound = p = next;
    } else {
      break;
    }
  }
  return bound;
}

void HeaderCache::prepare(clang::CompilerInvocation& invocation, const std::shared_ptr<clang::PCHContainerOperations>& pch) const {
  clang::FrontendOptions& frontend = invocation.getFrontendOpts();
  clang::PreprocessorOptions& preprocessor = invocation.getPreprocessorOpts();
  // Not with what a preamble would have to reproduce besides its own bytes: forced includes, a
  // PCH of the user's, remapped files.
  if (frontend.Inputs.size() != 1 || !frontend.Inputs[0].isFile() || !preprocessor.ImplicitPCHInclude.empty() ||
      !preprocessor.Includes.empty() || !preprocessor.MacroIncludes.empty() || !preprocessor.RemappedFiles.empty() ||
      !preprocessor.RemappedFileBuffers.empty())
    return;
  const std::string mainPath = frontend.Inputs[0].getFile().str();
  auto main = llvm::MemoryBuffer::getFile(mainPath);
  if (!main) return;
  const std::size_t size = systemIncludePreamble((*main)->getBuffer());
  if (size == 0) return;

  std::error_code error;
  std::filesystem::create_directories(directory_, error);
  if (error) return;
  const std::string key = keyOf(invocation, std::filesystem::current_path(error).string(), (*main)->getBuffer().substr(0, size));
  const std::string pchPath = (std::filesystem::path(directory_) / (key + ".pch")).string();
  const std::string stampsPath = (std::filesystem::path(directory_) / (key + ".stamps")).string();
  const std::string nonePath = (std::filesystem::path(directory_) / (key + ".none")).string();
  if (std::filesystem::exists(pchPath, error) && stampsHold(stampsPath)) {
    ::utime(pchPath.c_str(), nullptr);  // recently used
  } else {
    if (std::filesystem::exists(nonePath, error) && stampsHold(nonePath)) return;
    const Built built = buildPreamble(invocation, **main, size, pch, pchPath, stampsPath, nonePath);
    if (built != Built::Failed) evictOldest(directory_);
    if (built != Built::Yes) return;
  }
  // As Clang's configurePreamble: skip the preamble's bytes, read the PCH in their place.
  preprocessor.ImplicitPCHInclude = pchPath;
  preprocessor.PrecompiledPreambleBytes = {static_cast<unsigned>(size), true};
  preprocessor.DisablePCHOrModuleValidation = clang::DisableValidationForModuleKind::PCH;
  preprocessor.UsePredefines = false;
}

}  // namespace cats::frontend
