#include "level.hpp"

#include <algorithm>
#include <bit>

namespace cats::cache::detail {

Level::Level(const LevelConfig& config, std::uint64_t seed)
    : replacement_(config.replacement),
      writeBack_(config.write == WritePolicy::WriteBack),
      writeAllocate_(config.allocate == AllocatePolicy::WriteAllocate),
      lineBits_(static_cast<std::uint32_t>(std::countr_zero(config.lineBytes))),
      lineBytes_(config.lineBytes),
      random_(seed) {
  Geometry g = geometryOf(config);
  ways_ = g.ways;
  setMask_ = g.sets - 1;
  lines_.assign(g.lines, kNoLine);
  dirty_.assign(g.lines, 0);
  if (stamped()) stamps_.assign(g.lines, 0);
  if (replacement_ == Replacement::TreePlru) plru_.assign(g.lines, 0);
  mruSlot_.resize(g.sets);
  for (std::uint64_t set = 0; set < g.sets; ++set) mruSlot_[set] = static_cast<std::uint32_t>(set * ways_);  // empty: matches no line
}

std::vector<ResidentLine> Level::contents() const {
  std::vector<ResidentLine> out;
  for (std::size_t i = 0; i < lines_.size(); ++i)
    if (lines_[i] != kNoLine) out.push_back({lines_[i] << lineBits_, dirty_[i] != 0});
  std::sort(out.begin(), out.end(), [](const ResidentLine& a, const ResidentLine& b) { return a.address < b.address; });
  return out;
}

}  // namespace cats::cache::detail
