// Names and shapes of C library functions (see library_calls.hpp).
#include "library_calls.hpp"

#include <map>
#include <set>

namespace cats::frontend {

namespace {

bool startsWith(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }
bool endsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

/* Functions whose builtin spelling we map to the plain one. */
bool isKnownLibraryName(const std::string& name) {
  return isAllocation(name) || memoryRoutineShape(name) || isPureLibraryFunction(name) || name == "free" || name == "alloca";
}

}  // namespace

bool isFortified(const std::string& name) { return startsWith(name, "__") && endsWith(name, "_chk"); }

std::string canonicalCallee(const std::string& name) {
  std::string plain = name;
  if (isFortified(plain)) {
    plain = plain.substr(0, plain.size() - 4);
    plain = startsWith(plain, "__builtin___") ? plain.substr(12) : plain.substr(2);
  } else if (startsWith(plain, "__builtin_")) {
    plain = plain.substr(10);
  }
  return plain != name && isKnownLibraryName(plain) ? plain : name;
}

bool isPureLibraryFunction(const std::string& name) {
  static const std::set<std::string> names = {
      "sqrt", "sqrtf", "exp", "expf", "log", "logf", "log2", "log10", "sin", "sinf", "cos", "cosf", "tan", "atan", "atan2",
      "pow", "powf", "fabs", "fabsf", "abs", "labs", "llabs", "floor", "ceil", "round", "fmin", "fmax", "fma", "tanh", "erf",
      "printf", "fprintf", "puts", "putchar", "rand", "srand", "time", "clock", "exit", "abort", "atoi", "atol", "atof",
      "strtol", "strtod", "__assert_fail", "assert", "omp_get_thread_num", "omp_get_num_threads", "omp_get_wtime",
      "__builtin_object_size", "__builtin_dynamic_object_size", "__builtin_constant_p", "__builtin_unreachable",
      "__builtin_trap", "__builtin_prefetch", "__builtin_clz", "__builtin_ctz", "__builtin_popcount", "__builtin_fabs",
      "__builtin_sqrt", "__builtin_inf", "__builtin_huge_val", "__builtin_nan"};
  return names.count(name) != 0;
}

bool isAllocation(const std::string& name) {
  static const std::set<std::string> names = {"malloc", "calloc", "realloc", "aligned_alloc", "posix_memalign",
                                              "memalign", "valloc", "pvalloc", "strdup", "strndup"};
  return names.count(name) != 0;
}

bool returnsFirstArgument(const std::string& name) {
  return name == "__builtin_expect" || name == "__builtin_expect_with_probability" || name == "__builtin_assume_aligned";
}

std::optional<RoutineShape> memoryRoutineShape(const std::string& name) {
  using M = ir::AccessMode;
  using E = Extent;
  using R = RoutineShape::Result;
  static const std::map<std::string, RoutineShape> shapes = {
      {"memcpy", {{{1, M::Read, E::Bytes, 2, 0, false}, {0, M::Write, E::Bytes, 2, 0, false}}, 3, R::None}},
      {"memmove", {{{1, M::Read, E::Bytes, 2, 0, false}, {0, M::Write, E::Bytes, 2, 0, false}}, 3, R::None}},
      {"mempcpy", {{{1, M::Read, E::Bytes, 2, 0, false}, {0, M::Write, E::Bytes, 2, 0, false}}, 3, R::None}},
      {"memset", {{{0, M::Write, E::Bytes, 2, 0, false}}, 3, R::None}},
      {"bzero", {{{0, M::Write, E::Bytes, 1, 0, false}}, 2, R::None}},
      {"explicit_bzero", {{{0, M::Write, E::Bytes, 1, 0, false}}, 2, R::None}},
      {"memcmp", {{{0, M::Read, E::AtMost, 2, 0, false}, {1, M::Read, E::AtMost, 2, 0, false}}, 3, R::None}},
      {"bcmp", {{{0, M::Read, E::AtMost, 2, 0, false}, {1, M::Read, E::AtMost, 2, 0, false}}, 3, R::None}},
      {"memchr", {{{0, M::Read, E::AtMost, 2, 0, false}}, 3, R::PointerIntoFirst}},
      {"strcpy", {{{1, M::Read, E::String, 0, 1, false}, {0, M::Write, E::String, 0, 1, false}}, 2, R::None}},
      {"stpcpy", {{{1, M::Read, E::String, 0, 1, false}, {0, M::Write, E::String, 0, 1, false}}, 2, R::None}},
      {"strncpy", {{{1, M::Read, E::StringAtMost, 2, 1, false}, {0, M::Write, E::Bytes, 2, 0, false}}, 3, R::None}},
      {"strcat",
       {{{0, M::Read, E::String, 0, 0, false}, {1, M::Read, E::String, 0, 1, false}, {0, M::Write, E::String, 0, 1, true}}, 2, R::None}},
      {"strncat",
       {{{0, M::Read, E::String, 0, 0, false}, {1, M::Read, E::StringAtMost, 2, 1, false}, {0, M::Write, E::StringAtMost, 2, 1, true}},
        3, R::None}},
      {"strcmp", {{{0, M::Read, E::String, 0, 0, false}, {1, M::Read, E::String, 0, 1, false}}, 2, R::None}},
      {"strncmp", {{{0, M::Read, E::StringAtMost, 2, 0, false}, {1, M::Read, E::StringAtMost, 2, 1, false}}, 3, R::None}},
      {"strlen", {{{0, M::Read, E::String, 0, 0, false}}, 1, R::Length}},
      {"strnlen", {{{0, M::Read, E::StringAtMost, 1, 0, false}}, 2, R::Length}},
      {"strchr", {{{0, M::Read, E::String, 0, 0, false}}, 2, R::PointerIntoFirst}},
      {"strrchr", {{{0, M::Read, E::String, 0, 0, false}}, 2, R::PointerIntoFirst}},
  };
  auto it = shapes.find(name);
  if (it == shapes.end()) return std::nullopt;
  return it->second;
}

}  // namespace cats::frontend
