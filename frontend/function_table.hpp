// Which definition each function name means. C has one namespace of external functions per
// program and one of static functions per translation unit: zlib's `local` helpers share names
// across files. Every definition gets a unique IR name and every call names its definition.
#pragma once

#include "ir/ir.hpp"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace cats::frontend {

class FunctionTable {
 public:
  explicit FunctionTable(ir::Program& program) : program_(program) {}

  /// True when the definition of "name" at "loc" was lowered already from another unit (a static
  /// inline function of a shared header): "unit" then calls that one, and it is not lowered again.
  bool defineAgain(const std::string& unit, const std::string& name, const ir::SourceLoc& loc);
  /// Records the function just appended to the program, defined in "unit" ("internal": static).
  void define(const std::string& unit, const std::string& name, bool internal);
  /// After the last unit: names defined more than once become "name@file", several external
  /// definitions of one name are reported (an error unless "entries" picks one), and each call
  /// names the definition it reaches (its own unit first, then the external one). A static
  /// function that another file calls without defining it is qualified too.
  void resolve(const std::vector<std::string>& entries);

 private:
  struct Definition {
    std::string unit;
    bool internal = false;
  };
  ir::Program& program_;
  std::vector<Definition> definitions_;                               // parallel to program_.functions
  std::map<std::string, std::map<std::string, std::size_t>> byUnit_;  // unit -> name -> function index

  void makeNamesUnique(const std::map<std::string, std::vector<std::size_t>>& byName, const std::set<std::string>& shadowed);
  void reportDuplicates(const std::map<std::string, std::vector<std::size_t>>& externals, const std::vector<std::string>& entries);
};

/// main(argc, argv[, envp]) as run with no arguments: argc defaults to 1 (a binding overrides it),
/// argv holds two pointers (the program name and NULL), envp one (NULL).
void modelProgramArguments(ir::Program& program);

}  // namespace cats::frontend
