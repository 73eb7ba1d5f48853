// Where containers live: a model of a Linux process under Valgrind (docs/placement.md).
// Static data in .bss order, a glibc-like heap (16-byte chunks with headers, a dynamic
// mmap threshold, mmapped blocks page-aligned plus 16), stack frames growing down.
#pragma once

#include <cstdint>
#include <map>
#include <vector>

namespace cats::sim {

struct LayoutConstants {
  std::uint64_t staticBase = 0x10c040;      // first .bss object of a PIE under Valgrind
  std::uint64_t heapBase = 0x4035000;       // program break
  std::uint64_t firstChunkOffset = 0x2a0;   // glibc's tcache block (0x290) comes first
  std::uint64_t mmapBase = 0x4a2c000;       // Valgrind maps client blocks upward from here (after libc; withLibm moves it)
  std::uint64_t stackTop = 0x1fff000600;    // stack pointer at the entry function
  std::uint64_t parameterBase = 0x10000000000;  // separate blocks for entry pointer parameters
  std::uint64_t mmapThreshold = 128 * 1024; // glibc's initial M_MMAP_THRESHOLD
  std::uint64_t mmapThresholdMax = 32ull * 1024 * 1024;
  // Where the dynamic loader's tables sit (sim/lazy_binding.cpp): the program image, ld.so (with
  // the link maps it allocates and Valgrind's preload above it), libm when linked, then libc.
  std::uint64_t imageBase = 0x108000;
  std::uint64_t loaderBase = 0x4000000;
  std::uint64_t libmBase = 0x4847000;
  std::uint64_t libmBytes = 0xe0000;            // libm's mapping: what libc and the blocks above it move up by
  std::uint64_t libcBase = 0x4847000;           // without libm
  std::uint64_t callFrameBytes = 32;            // the stack pointer at a call sits this far below the modelled frames (saved registers)
};

/// "c" for a process that maps libm (Clang links it whenever -lm is given): libc and Valgrind's
/// mmapped blocks after it sit libm's size higher (measured: a 1 MiB block at 0x4b0c010, not 0x4a2c010).
inline LayoutConstants withLibm(LayoutConstants c) {
  c.libcBase += c.libmBytes;
  c.mmapBase += c.libmBytes;
  return c;
}

/// The glibc malloc model: first fit on exact-size free lists, a top chunk, and mmap.
class HeapModel {
 public:
  explicit HeapModel(const LayoutConstants& c);
  std::uint64_t allocate(std::uint64_t bytes, std::uint64_t alignment);
  void release(std::uint64_t address);
  /// Whether the block at "address" was mmapped (fresh pages are already zero: calloc skips them).
  bool isMapped(std::uint64_t address) const;

 private:
  struct Block {
    std::uint64_t chunk;
    std::uint64_t chunkBytes;
    bool mapped;
  };
  LayoutConstants constants_;
  std::uint64_t top_;
  std::uint64_t mmapNext_;
  std::uint64_t threshold_;
  std::map<std::uint64_t, std::vector<std::uint64_t>> freeChunks_;  // chunk size -> chunk addresses (LIFO)
  std::map<std::uint64_t, std::vector<std::uint64_t>> freeMaps_;    // region size -> regions (LIFO)
  std::map<std::uint64_t, Block> live_;                             // user address -> block
};

/// Stack frames: arrays of one frame are laid out when the frame is entered.
class StackModel {
 public:
  explicit StackModel(std::uint64_t top) : sp_(top) {}
  std::uint64_t push(std::uint64_t bytes, std::uint64_t alignment);
  std::uint64_t mark() const { return sp_; }
  void restore(std::uint64_t mark) { sp_ = mark; }

 private:
  std::uint64_t sp_;
};

/// Static data in the order the compiler emits it.
class StaticModel {
 public:
  explicit StaticModel(std::uint64_t base) : next_(base) {}
  std::uint64_t place(std::uint64_t bytes, std::uint64_t alignment);

 private:
  std::uint64_t next_;
};

inline std::uint64_t alignUp(std::uint64_t v, std::uint64_t a) { return a <= 1 ? v : (v + a - 1) / a * a; }
inline std::uint64_t alignDown(std::uint64_t v, std::uint64_t a) { return a <= 1 ? v : v / a * a; }

}  // namespace cats::sim
