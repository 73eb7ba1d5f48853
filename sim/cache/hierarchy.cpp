// Hierarchy's construction, copies, the binding of its inline hit path and engine (dispatch.hpp),
// and its queries. The engine itself is in engine.hpp, requests.hpp and exclusive.hpp.
#include "cache/hierarchy.hpp"

#include "classifier.hpp"
#include "level.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>

namespace cats::cache {

using detail::kNoLine;
using detail::kNoWay;

namespace {

/* "config" if validate() accepts it; else throws its problems, one per line. */
HierarchyConfig checked(HierarchyConfig config) {
  std::vector<std::string> problems = validate(config);
  if (problems.empty()) return config;
  std::string text = "invalid cache hierarchy:";
  for (const std::string& p : problems) text += "\n  " + p;
  throw std::invalid_argument(text);
}

}  // namespace

Hierarchy::Hierarchy(HierarchyConfig config)
    : config_(checked(std::move(config))),
      path_(pathFor<true>(config_)),
      demandPath_(pathFor<false>(config_)),
      hitsObserved_(config_.classifyMisses || config_.trackFillers),
      levelCount_(static_cast<std::uint32_t>(config_.levels.size())),
      topBits_(static_cast<std::uint32_t>(std::countr_zero(config_.levels[0].lineBytes))),
      topWriteBack_(config_.levels[0].write == WritePolicy::WriteBack) {
  levels_.reserve(config_.levels.size());
  for (std::size_t k = 0; k < config_.levels.size(); ++k) {
    levels_.emplace_back(config_.levels[k], detail::levelSeed(config_.seed, k));
    if (config_.classifyMisses) classifiers_.emplace_back(levels_.back().lineCount());
    if (config_.countSetMisses) observed_.setMisses.emplace_back(levels_.back().setMask() + 1, 0);
    if (config_.trackFillers) observed_.reuse.emplace_back();
  }
  observed_.tracking = config_.trackFillers;
  stats_.resize(levels_.size());
  bindFastPaths();
}

/* Copies and moves forget the remembered hit and rebind the inline hit path to their own arrays. */
Hierarchy::Hierarchy(const Hierarchy& other)
    : config_(other.config_),
      levels_(other.levels_),
      classifiers_(other.classifiers_),
      observed_(other.observed_),
      stats_(other.stats_),
      path_(other.path_),
      demandPath_(other.demandPath_),
      hitsObserved_(other.hitsObserved_),
      levelCount_(other.levelCount_),
      topBits_(other.topBits_),
      topWriteBack_(other.topWriteBack_) {
  bindFastPaths();
}

Hierarchy::Hierarchy(Hierarchy&& other) noexcept
    : config_(std::move(other.config_)),
      levels_(std::move(other.levels_)),
      classifiers_(std::move(other.classifiers_)),
      observed_(std::move(other.observed_)),
      stats_(std::move(other.stats_)),
      path_(other.path_),
      demandPath_(other.demandPath_),
      hitsObserved_(other.hitsObserved_),
      levelCount_(other.levelCount_),
      topBits_(other.topBits_),
      topWriteBack_(other.topWriteBack_) {
  other.repeatLine_ = kNoLine;
  bindFastPaths();
}

Hierarchy& Hierarchy::operator=(const Hierarchy& other) {
  if (this != &other) *this = Hierarchy(other);
  return *this;
}

Hierarchy& Hierarchy::operator=(Hierarchy&& other) noexcept {
  config_ = std::move(other.config_);
  levels_ = std::move(other.levels_);
  classifiers_ = std::move(other.classifiers_);
  observed_ = std::move(other.observed_);
  stats_ = std::move(other.stats_);
  path_ = other.path_;
  demandPath_ = other.demandPath_;
  hitsObserved_ = other.hitsObserved_;
  levelCount_ = other.levelCount_;
  topBits_ = other.topBits_;
  topWriteBack_ = other.topWriteBack_;
  repeatLine_ = kNoLine;
  other.repeatLine_ = kNoLine;
  bindFastPaths();
  return *this;
}

Hierarchy::~Hierarchy() = default;

/* Point the inline hit path at the first level's arrays and the statistics (again after a copy
   or move: they point into the object). */
void Hierarchy::bindFastPaths() {
  if (levels_.empty()) return;  // moved from
  detail::Level& top = levels_[0];
  topSetMask_ = top.setMask();
  topSlots_ = top.slotArray();
  topMru_ = top.mruSlots();
  topStats_ = stats_.data();
}

MemoryTraffic Hierarchy::memoryTraffic() const { return trafficBelow(stats_.back()); }

void Hierarchy::resetStats() {
  std::fill(stats_.begin(), stats_.end(), LevelStats{});
  for (std::vector<std::uint64_t>& sets : observed_.setMisses) std::fill(sets.begin(), sets.end(), 0);
  for (auto& counts : observed_.reuse) counts.clear();
}

/* Per-set counts and fillers are not in the image and repeatStats() does not repeat them: an
   observing hierarchy is never warped. */
bool Hierarchy::capturesState() const {
  return !config_.observes() &&
         std::none_of(config_.levels.begin(), config_.levels.end(),
                      [](const LevelConfig& level) { return level.replacement == Replacement::Random; });
}

void Hierarchy::captureState(std::vector<std::uint64_t>& image) const {
  for (const detail::Level& level : levels_) level.captureState(image);
}

void Hierarchy::repeatStats(const std::vector<LevelStats>& before, std::uint64_t times) {
  for (std::size_t k = 0; k < stats_.size(); ++k) stats_[k] = repeated(stats_[k], before[k], times);
}

std::vector<std::uint64_t> Hierarchy::setMisses(std::size_t level) const {
  return observed_.setMisses.empty() ? std::vector<std::uint64_t>{} : observed_.setMisses.at(level);
}

std::vector<ReuseCount> Hierarchy::reuse(std::size_t level) const {
  std::vector<ReuseCount> out;
  if (observed_.reuse.empty()) return out;
  for (const auto& [key, hits] : observed_.reuse.at(level)) {
    const std::uint64_t word = key >> detail::kFillerShift;
    out.push_back({word == 0 ? ReuseCount::kUnknownFiller : static_cast<std::uint32_t>(word - 1), static_cast<std::uint32_t>(key), hits});
  }
  std::sort(out.begin(), out.end(),
            [](const ReuseCount& a, const ReuseCount& b) { return a.filler != b.filler ? a.filler < b.filler : a.hitter < b.hitter; });
  return out;
}

bool Hierarchy::firstLevelHolds(std::uint64_t address, bool dirty) const {
  const detail::Level& l = levels_.front();
  const std::uint64_t line = address >> l.lineBits();
  const std::uint64_t set = l.setOf(line);
  const std::uint32_t way = l.find(set, line);
  return way != kNoWay && (!dirty || l.dirtyAt(set, way));
}

bool Hierarchy::contains(std::size_t level, std::uint64_t address) const {
  const detail::Level& l = levels_.at(level);
  std::uint64_t line = address >> l.lineBits();
  return l.find(l.setOf(line), line) != kNoWay;
}

std::vector<ResidentLine> Hierarchy::contents(std::size_t level) const { return levels_.at(level).contents(); }

}  // namespace cats::cache
