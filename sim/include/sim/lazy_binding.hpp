// The dynamic loader's work at the first call of each C library function: a program linked the
// default way (no `-z now`) binds every function lazily, and that first call runs ld.so's
// symbol lookup, whose few dozen lines evict the program's data (docs/register-model.md,
// "Lazy binding").
#pragma once

#include "sim/placement.hpp"

#include <cstdint>
#include <limits>
#include <set>
#include <string>
#include <vector>

namespace cats::sim {

/// How the simulated program binds its library calls.
struct BindingOptions {
  bool lazy = false;          // resolve each function at its first call (the default link); false: at start-up (`-z now`)
  bool libm = false;          // libm is mapped (it moves libc, whose tables the lookup reads)
  // The record tag of the loader's accesses: past every trace event (simulate() counts them at
  // the event count; other readers of the stream skip tags past their events).
  std::uint32_t tag = std::numeric_limits<std::uint32_t>::max();
};

struct LoaderAccess {
  std::uint64_t address = 0;
  bool write = false;
};

/// The functions bound so far and what binding the next one costs.
class LazyBinding {
 public:
  /// "layout" as the process maps it (withLibm applied when "libm").
  LazyBinding(const LayoutConstants& layout, bool libm);

  /// ld.so's accesses binding "function" when the program calls it with the stack pointer at
  /// "sp": the measured lookup at its first call, nothing at later calls or for a function
  /// not measured (it is then only named in unmeasured()).
  std::vector<LoaderAccess> call(const std::string& function, std::uint64_t sp);

  /// Functions bound (measured or not), in the order of their first call.
  const std::vector<std::string>& bound() const { return bound_; }
  /// Of those, the ones whose lookup is not measured (no accesses were made for them).
  const std::vector<std::string>& unmeasured() const { return unmeasured_; }

 private:
  LayoutConstants layout_;
  bool libm_;
  std::set<std::string> seen_;
  std::vector<std::string> bound_;
  std::vector<std::string> unmeasured_;
};

}  // namespace cats::sim
