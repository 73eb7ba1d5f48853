// What a cache hierarchy is made of: levels (size, associativity, line size, policies), how the
// levels share lines (inclusion), and the checks that reject a geometry the simulator cannot model.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cats::cache {

/// Outcome's arrays are fixed-size so the hot path never allocates; validate() rejects more levels.
inline constexpr std::size_t kMaxLevels = 8;
/// A level larger than this is a typo in a machine file, not a cache.
inline constexpr std::uint64_t kMaxLevelBytes = std::uint64_t{4} << 30;

enum class Replacement { Lru, Fifo, Random, TreePlru };
enum class WritePolicy { WriteBack, WriteThrough };
enum class AllocatePolicy { WriteAllocate, NoWriteAllocate };
enum class Inclusion { NonInclusive, Inclusive, Exclusive };

std::string_view toString(Replacement r);     // "lru", "fifo", "random", "plru"
std::string_view toString(WritePolicy w);     // "write-back", "write-through"
std::string_view toString(AllocatePolicy a);  // "write-allocate", "no-write-allocate"
std::string_view toString(Inclusion i);       // "non-inclusive", "inclusive", "exclusive"
std::optional<Replacement> parseReplacement(std::string_view text);
std::optional<WritePolicy> parseWritePolicy(std::string_view text);
std::optional<AllocatePolicy> parseAllocatePolicy(std::string_view text);
std::optional<Inclusion> parseInclusion(std::string_view text);

struct LevelConfig {
  std::string name;
  std::uint64_t sizeBytes = 0;
  std::uint32_t associativity = 0;  // 0 means fully associative
  std::uint32_t lineBytes = 0;
  Replacement replacement = Replacement::Lru;
  WritePolicy write = WritePolicy::WriteBack;
  AllocatePolicy allocate = AllocatePolicy::WriteAllocate;

  bool operator==(const LevelConfig&) const = default;
};

struct HierarchyConfig {
  std::vector<LevelConfig> levels;  // nearest the core first; memory is below the last
  Inclusion inclusion = Inclusion::NonInclusive;
  std::uint64_t seed = 1;  // for Random replacement
  bool classifyMisses = false;
  bool countSetMisses = false;  // per-set miss histograms (Hierarchy::setMisses)
  bool trackFillers = false;    // which requester tag brought each line in, and who hit it (Hierarchy::reuse)
  bool vectorScans = true;      // the MRU engine may scan eight-way sets in AVX-512 registers (false: scalar, for tests)

  /// Whether some statistic needs every access seen one by one (the plain engine, no warping).
  bool observes() const { return classifyMisses || countSetMisses || trackFillers; }

  bool operator==(const HierarchyConfig&) const = default;
};

/// Lines, ways and sets of a level that validate() accepted (fully associative: one set).
struct Geometry {
  std::uint64_t lines = 0;
  std::uint32_t ways = 0;
  std::uint64_t sets = 0;
};
Geometry geometryOf(const LevelConfig& level);

/// Every problem of "config", one human-readable sentence each; empty when the simulator accepts it.
std::vector<std::string> validate(const HierarchyConfig& config);

/// A value, or why there is none.
template <class T>
struct Parsed {
  std::optional<T> value;
  std::string error;
};

/// Cachegrind's "size,assoc,line" (e.g. "32768,8,64"; assoc 0 is fully associative) as a level
/// called "name" with default policies. Checks the syntax only; validate() checks the geometry.
Parsed<LevelConfig> parseGeometry(std::string_view text, std::string name);
/// "32768", "32KiB", "32K", "32 KB", "1.375MiB", "8M", "1G": binary units, case-insensitive,
/// a fraction only when the result is a whole number of bytes.
Parsed<std::uint64_t> parseByteSize(std::string_view text);
/// "32KiB", "8MiB", "1536": the largest binary unit that divides "bytes"; parseByteSize() reads it back.
std::string formatByteSize(std::uint64_t bytes);

}  // namespace cats::cache
