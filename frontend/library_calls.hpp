// What the analysis knows about C library functions by name: the builtin and fortified spellings
// of one function, allocation functions, functions that touch no analysed memory, and the
// memory each string/memory routine reads and writes. Plain C++: no Clang here.
#pragma once

#include "ir/ir.hpp"

#include <optional>
#include <string>
#include <vector>

namespace cats::frontend {

/// The plain name of a library function: `__builtin_memcpy`, `__memcpy_chk` and
/// `__builtin___memcpy_chk` are `memcpy`. Names we do not know are returned unchanged.
std::string canonicalCallee(const std::string& name);

/// True for the `*_chk` fortify forms, whose last argument is the destination size.
bool isFortified(const std::string& name);

/// Library functions that touch no memory the program owns (apart from their arguments' values).
bool isPureLibraryFunction(const std::string& name);

/// Allocation functions modelled as allocation sites (malloc family, strdup, valloc, ...).
bool isAllocation(const std::string& name);

/// Builtins whose value is their first argument (`__builtin_expect`, `__builtin_assume_aligned`).
bool returnsFirstArgument(const std::string& name);

/// How many bytes one operand of a memory routine covers.
enum class Extent {
  Bytes,         // exactly the count argument
  AtMost,        // at most the count argument (memcmp stops at the first difference)
  String,        // the string's length + 1 (its terminator)
  StringAtMost,  // min(string length + 1, count argument)
};

struct Operand {
  unsigned arg = 0;                // the pointer argument accessed
  ir::AccessMode mode = ir::AccessMode::Read;
  Extent extent = Extent::Bytes;
  unsigned countArg = 0;           // Bytes, AtMost, StringAtMost
  unsigned stringArg = 0;          // String, StringAtMost: whose length
  bool afterString = false;        // strcat: written after the string already in the destination
};

struct RoutineShape {
  std::vector<Operand> operands;
  unsigned minArguments = 0;
  enum class Result { None, Length, PointerIntoFirst } result = Result::None;
};

/// The accesses of string/memory routine "name" (canonical), if it is one.
std::optional<RoutineShape> memoryRoutineShape(const std::string& name);

}  // namespace cats::frontend
