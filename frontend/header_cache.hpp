// Precompiled system-header preambles kept between runs (docs/decisions.md, "Header cache").
// Like clang_tooling.hpp, include it before anything that pulls in GiNaC/CLN.
#pragma once

#include "clang_tooling.hpp"
#include "frontend/system_preamble.hpp"

#include <memory>
#include <string>

namespace cats::frontend {

/// A directory of preambles: per main file, compiler arguments and preamble text, a PCH of the
/// preamble's headers and the files and search directories it was built from (with their sizes
/// and times, checked before each use). A preamble that declares anything outside a system
/// header is not used: the lowering leaves the PCH's declarations unread (noload_decls).
class HeaderCache {
 public:
  explicit HeaderCache(std::string directory) : directory_(std::move(directory)) {}

  /// Points "invocation" at the preamble of its main file, built first if there is none or it
  /// is stale; leaves it as it is when the file has no such preamble, or the cache cannot be
  /// read or written.
  void prepare(clang::CompilerInvocation& invocation, const std::shared_ptr<clang::PCHContainerOperations>& pch) const;

 private:
  std::string directory_;
};

}  // namespace cats::frontend
