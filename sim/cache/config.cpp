// Policy names and the geometry checks of validate().
#include "cache/config.hpp"

#include <array>
#include <bit>
#include <limits>
#include <set>
#include <utility>

namespace cats::cache {

namespace {

template <class E, std::size_t N>
using NameTable = std::array<std::pair<E, std::string_view>, N>;

constexpr NameTable<Replacement, 4> kReplacementNames{
    {{Replacement::Lru, "lru"}, {Replacement::Fifo, "fifo"}, {Replacement::Random, "random"}, {Replacement::TreePlru, "plru"}}};
constexpr NameTable<WritePolicy, 2> kWriteNames{{{WritePolicy::WriteBack, "write-back"}, {WritePolicy::WriteThrough, "write-through"}}};
constexpr NameTable<AllocatePolicy, 2> kAllocateNames{
    {{AllocatePolicy::WriteAllocate, "write-allocate"}, {AllocatePolicy::NoWriteAllocate, "no-write-allocate"}}};
constexpr NameTable<Inclusion, 3> kInclusionNames{
    {{Inclusion::NonInclusive, "non-inclusive"}, {Inclusion::Inclusive, "inclusive"}, {Inclusion::Exclusive, "exclusive"}}};

template <class E, std::size_t N>
std::string_view nameOf(const NameTable<E, N>& table, E value) {
  for (const auto& [v, name] : table)
    if (v == value) return name;
  return "?";
}

template <class E, std::size_t N>
std::optional<E> valueOf(const NameTable<E, N>& table, std::string_view text) {
  for (const auto& [v, name] : table)
    if (name == text) return v;
  return std::nullopt;
}

/* How messages name level "index" (0-based) when it has no name. */
std::string labelOf(const LevelConfig& level, std::size_t index) {
  return level.name.empty() ? "level " + std::to_string(index + 1) : level.name;
}

/* Add the problems of one level on its own to "problems". */
void checkLevel(const LevelConfig& level, const std::string& label, std::vector<std::string>& problems) {
  auto say = [&](const std::string& text) { problems.push_back(label + ": " + text); };
  bool usable = true;
  if (level.sizeBytes == 0) {
    say("size is zero");
    usable = false;
  } else if (level.sizeBytes > kMaxLevelBytes) {
    say("size " + std::to_string(level.sizeBytes) + " is larger than the supported maximum " + formatByteSize(kMaxLevelBytes));
    usable = false;
  }
  if (level.lineBytes == 0) {
    say("line size is zero");
    usable = false;
  } else if (!std::has_single_bit(level.lineBytes)) {
    say("line size " + std::to_string(level.lineBytes) + " is not a power of two");
    usable = false;
  }
  if (!usable) return;
  std::string size = std::to_string(level.sizeBytes), line = std::to_string(level.lineBytes);
  std::uint64_t lines = level.sizeBytes / level.lineBytes;
  if (level.associativity == 0) {
    if (level.sizeBytes % level.lineBytes != 0) {
      say("size " + size + " is not a multiple of line size " + line);
      return;
    }
    if (lines > std::numeric_limits<std::uint32_t>::max()) {
      say("a fully associative level of " + std::to_string(lines) + " lines has too many ways");
      return;
    }
  } else if (level.associativity > lines) {
    say("associativity " + std::to_string(level.associativity) + " is larger than the number of lines " + std::to_string(lines));
    return;
  } else if (level.sizeBytes % (std::uint64_t{level.lineBytes} * level.associativity) != 0) {
    say("size " + size + " is not a multiple of line size " + line + " times associativity " + std::to_string(level.associativity));
    return;
  }
  Geometry g = geometryOf(level);
  if (!std::has_single_bit(g.sets)) say("number of sets " + std::to_string(g.sets) + " is not a power of two");
  if (level.replacement == Replacement::TreePlru && !std::has_single_bit(g.ways))
    say("tree-PLRU needs a power-of-two associativity, not " + std::to_string(g.ways));
}

}  // namespace

std::string_view toString(Replacement r) { return nameOf(kReplacementNames, r); }
std::string_view toString(WritePolicy w) { return nameOf(kWriteNames, w); }
std::string_view toString(AllocatePolicy a) { return nameOf(kAllocateNames, a); }
std::string_view toString(Inclusion i) { return nameOf(kInclusionNames, i); }
std::optional<Replacement> parseReplacement(std::string_view text) { return valueOf(kReplacementNames, text); }
std::optional<WritePolicy> parseWritePolicy(std::string_view text) { return valueOf(kWriteNames, text); }
std::optional<AllocatePolicy> parseAllocatePolicy(std::string_view text) { return valueOf(kAllocateNames, text); }
std::optional<Inclusion> parseInclusion(std::string_view text) { return valueOf(kInclusionNames, text); }

Geometry geometryOf(const LevelConfig& level) {
  Geometry g;
  g.lines = level.sizeBytes / level.lineBytes;
  g.ways = level.associativity == 0 ? static_cast<std::uint32_t>(g.lines) : level.associativity;
  g.sets = g.lines / g.ways;
  return g;
}

std::vector<std::string> validate(const HierarchyConfig& config) {
  std::vector<std::string> problems;
  const auto& levels = config.levels;
  if (levels.empty()) problems.push_back("the hierarchy has no levels");
  if (levels.size() > kMaxLevels)
    problems.push_back("the hierarchy has " + std::to_string(levels.size()) + " levels; at most " + std::to_string(kMaxLevels) +
                       " are supported");
  std::set<std::string> names;
  for (std::size_t k = 0; k < levels.size(); ++k) {
    const LevelConfig& level = levels[k];
    std::string label = labelOf(level, k);
    if (level.name.empty()) problems.push_back(label + ": the name is empty");
    if (!level.name.empty() && !names.insert(level.name).second) problems.push_back("duplicate level name \"" + level.name + "\"");
    checkLevel(level, label, problems);
    if (k == 0 || levels[k - 1].lineBytes == 0 || level.lineBytes == 0) continue;
    const LevelConfig& above = levels[k - 1];
    if (level.lineBytes < above.lineBytes)
      problems.push_back(label + ": line size " + std::to_string(level.lineBytes) + " is smaller than line size " +
                         std::to_string(above.lineBytes) + " of " + labelOf(above, k - 1) + " above it");
    if (config.inclusion == Inclusion::Exclusive && level.lineBytes != levels[0].lineBytes)
      problems.push_back("an exclusive hierarchy needs equal line sizes: " + label + " has " + std::to_string(level.lineBytes) + ", " +
                         labelOf(levels[0], 0) + " has " + std::to_string(levels[0].lineBytes));
  }
  return problems;
}

}  // namespace cats::cache
