// ld.so's lazy binding under Valgrind (glibc 2.36, Valgrind 3.19), as bench/lazy_binding/measure.sh
// measured it: per function, the data lines of _dl_runtime_resolve_xsave (the xsave area below
// the stack pointer), _dl_fixup, do_lookup_x over every loaded object's hash table, the
// function's ifunc resolver and the GOT write.
#include "sim/lazy_binding.hpp"

#include <algorithm>
#include <cstddef>
#include <string_view>

namespace cats::sim {

namespace {

enum Region : std::uint8_t { Stack, Main, LdSo, Libm, Libc };

struct LoaderLine {
  Region region;
  std::int64_t offset;  // of the line's start in its region (the stack: from the stack pointer's line)
  int firstWrites;      // the first access is a write (a miss there is a write miss)
  int reads;
  int writes;
};

struct Resolution {
  std::string_view function;
  const LoaderLine* lines;
  std::size_t count;

  template <std::size_t N>
  constexpr Resolution(std::string_view f, const LoaderLine (&l)[N]) : function(f), lines(l), count(N) {}
};

#include "lazy_binding_table.inc"

template <std::size_t N>
const Resolution* find(const Resolution (&table)[N], const std::string& function) {
  const auto* it = std::find_if(std::begin(table), std::end(table), [&](const Resolution& r) { return r.function == function; });
  return it == std::end(table) ? nullptr : it;
}

}  // namespace

LazyBinding::LazyBinding(const LayoutConstants& layout, bool libm) : layout_(layout), libm_(libm) {}

std::vector<LoaderAccess> LazyBinding::call(const std::string& function, std::uint64_t sp) {
  std::vector<LoaderAccess> out;
  if (!seen_.insert(function).second) return out;
  bound_.push_back(function);
  const Resolution* resolution = libm_ ? find(kLibmResolutions, function) : find(kNoLibmResolutions, function);
  if (!resolution) {
    unmeasured_.push_back(function);
    return out;
  }
  const std::uint64_t bases[] = {sp & ~std::uint64_t{63}, layout_.imageBase, layout_.loaderBase, layout_.libmBase, layout_.libcBase};
  for (std::size_t i = 0; i < resolution->count; ++i) {
    const LoaderLine& line = resolution->lines[i];
    const std::uint64_t address = bases[line.region] + static_cast<std::uint64_t>(line.offset);
    // The probe's GOT may run longer than the modelled image has room for: its slots past the
    // image's end would be the program's first static objects.
    if (line.region == Main && address >= layout_.staticBase) continue;
    // One line's accesses together, the first as measured: the line's place in the recency
    // order is its last touch, and nothing else of the lookup competes for its set.
    out.push_back({address, line.firstWrites != 0});
    for (int r = line.firstWrites != 0 ? line.reads : line.reads - 1; r > 0; --r) out.push_back({address, false});
    for (int w = line.firstWrites != 0 ? line.writes - 1 : line.writes; w > 0; --w) out.push_back({address, true});
  }
  return out;
}

}  // namespace cats::sim
