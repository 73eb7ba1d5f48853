// The integers the simulated program stored in the containers it later reads as indexes or loop
// bounds (`col` of `x[col[j]]`, `rowptr` of a CSR row loop), keyed by container and byte offset,
// so that those reads give the program's own values instead of a draw.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <unordered_map>
#include <vector>

namespace cats::sim {

class ValueMemory {
 public:
  explicit ValueMemory(std::size_t containers = 0) : values_(containers) {}

  /// The container was (re)allocated with "bytes" (0: not known), or released: nothing in it is
  /// known. Values at 4-byte-aligned offsets of a container of known size are kept in an array
  /// (8 bytes and a bit per 4-byte slot, made at the first store), others in a hash map.
  void reset(std::uint32_t container, std::uint64_t bytes) {
    if (container >= values_.size()) return;
    Values& v = values_[container];
    v.bytes = bytes;
    v.dense.clear();
    v.dense.shrink_to_fit();
    v.known.clear();
    v.known.shrink_to_fit();
    v.denseCount = 0;
    v.sparse.clear();
  }
  /// A write at a place nobody knows: every value of the container may have changed.
  void clear(std::uint32_t container) {
    if (container >= values_.size()) return;
    Values& v = values_[container];
    if (v.denseCount != 0) std::fill(v.known.begin(), v.known.end(), 0);
    v.denseCount = 0;
    if (!v.sparse.empty()) v.sparse.clear();
  }
  void store(std::uint32_t container, std::int64_t offset, std::int64_t value) {
    Values& v = values_.at(container);
    if (auto slot = denseSlot(v, offset)) {
      if (v.dense.empty()) {
        const std::uint64_t slots = (v.bytes + 3) / 4;
        v.dense.assign(slots, 0);
        v.known.assign((slots + 63) / 64, 0);
      }
      std::uint64_t& word = v.known[*slot / 64];
      const std::uint64_t bit = std::uint64_t{1} << (*slot % 64);
      v.denseCount += (word & bit) == 0 ? 1 : 0;
      word |= bit;
      v.dense[*slot] = value;
      return;
    }
    v.sparse[offset] = value;
  }
  /// A write whose value is not followed: what was there is no longer known.
  void forget(std::uint32_t container, std::int64_t offset) {
    Values& v = values_.at(container);
    if (auto slot = denseSlot(v, offset)) {
      if (v.dense.empty()) return;  // nothing known there anyway
      std::uint64_t& word = v.known[*slot / 64];
      const std::uint64_t bit = std::uint64_t{1} << (*slot % 64);
      v.denseCount -= (word & bit) != 0 ? 1 : 0;
      word &= ~bit;
      return;
    }
    v.sparse.erase(offset);
  }
  /// False when no value of the container is known, so that a load's offset need not be computed.
  bool holdsAny(std::uint32_t container) const {
    return container < values_.size() && (values_[container].denseCount != 0 || !values_[container].sparse.empty());
  }
  std::optional<std::int64_t> load(std::uint32_t container, std::int64_t offset) const {
    if (container >= values_.size()) return std::nullopt;
    const Values& v = values_[container];
    if (auto slot = denseSlot(v, offset)) {
      if (v.dense.empty() || ((v.known[*slot / 64] >> (*slot % 64)) & 1) == 0) return std::nullopt;
      return v.dense[*slot];
    }
    auto it = v.sparse.find(offset);
    if (it == v.sparse.end()) return std::nullopt;
    return it->second;
  }

 private:
  static constexpr std::uint64_t kDenseSlots = std::uint64_t{1} << 24;  // containers up to 64 MiB kept in an array
  struct Values {
    std::uint64_t bytes = 0;
    std::vector<std::int64_t> dense;   // per 4-byte slot
    std::vector<std::uint64_t> known;  // a bit per slot of "dense"
    std::uint64_t denseCount = 0;      // bits set in "known"
    std::unordered_map<std::int64_t, std::int64_t> sparse;
  };

  /* The array slot of "offset" (nullopt: the hash map holds it). */
  static std::optional<std::uint64_t> denseSlot(const Values& v, std::int64_t offset) {
    if (v.bytes == 0 || offset < 0 || offset % 4 != 0 || static_cast<std::uint64_t>(offset) >= v.bytes || v.bytes / 4 > kDenseSlots)
      return std::nullopt;
    return static_cast<std::uint64_t>(offset) / 4;
  }

  std::vector<Values> values_;  // per container
};

}  // namespace cats::sim
