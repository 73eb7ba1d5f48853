#include "level.hpp"

#include <algorithm>
#include <bit>

namespace cats::cache::detail {

Level::Level(const LevelConfig& config, std::uint64_t seed)
    : replacement_(config.replacement),
      ordered_(config.replacement == Replacement::Lru || config.replacement == Replacement::Fifo),
      writeBack_(config.write == WritePolicy::WriteBack),
      writeAllocate_(config.allocate == AllocatePolicy::WriteAllocate),
      lineBits_(static_cast<std::uint32_t>(std::countr_zero(config.lineBytes))),
      lineBytes_(config.lineBytes),
      random_(seed) {
  Geometry g = geometryOf(config);
  ways_ = g.ways;
  setMask_ = g.sets - 1;
  slots_.assign(g.lines, Slot{kNoLine, 0});
  if (replacement_ == Replacement::TreePlru) plru_.assign(g.lines, 0);
  mruSlot_.resize(g.sets);
  for (std::uint64_t set = 0; set < g.sets; ++set) mruSlot_[set] = static_cast<std::uint32_t>(set * ways_);  // ordered sets: always; else empty, matching no line
}

std::vector<ResidentLine> Level::contents() const {
  std::vector<ResidentLine> out;
  for (const Slot& slot : slots_)
    if (slot.line != kNoLine) out.push_back({slot.line << lineBits_, (slot.dirty & 1) != 0});
  std::sort(out.begin(), out.end(), [](const ResidentLine& a, const ResidentLine& b) { return a.address < b.address; });
  return out;
}

void Level::captureState(std::vector<std::uint64_t>& image) const {
  image.reserve(image.size() + 2 * slots_.size() + plru_.size() / 8 + 1);
  for (const Slot& slot : slots_) {
    image.push_back(slot.line);
    image.push_back(slot.dirty);
  }
  for (std::size_t i = 0; i < plru_.size(); i += 8) {
    std::uint64_t word = 0;
    for (std::size_t b = i; b < std::min(i + 8, plru_.size()); ++b) word = word << 8 | plru_[b];
    image.push_back(word);
  }
}

}  // namespace cats::cache::detail
