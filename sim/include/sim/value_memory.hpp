// The integers the simulated program stored in the containers it later reads as indexes or loop
// bounds (`col` of `x[col[j]]`, `rowptr` of a CSR row loop), keyed by container and byte offset,
// so that those reads give the program's own values instead of a draw.
#pragma once

#include <cstdint>
#include <optional>
#include <unordered_map>
#include <vector>

namespace cats::sim {

class ValueMemory {
 public:
  explicit ValueMemory(std::size_t containers = 0) : values_(containers) {}

  void store(std::uint32_t container, std::int64_t offset, std::int64_t value) { values_.at(container)[offset] = value; }
  /// A write whose value is not followed: what was there is no longer known.
  void forget(std::uint32_t container, std::int64_t offset) { values_.at(container).erase(offset); }
  /// The container was (re)allocated or released: nothing in it is known.
  void clear(std::uint32_t container) {
    if (container < values_.size()) values_[container].clear();
  }
  std::optional<std::int64_t> load(std::uint32_t container, std::int64_t offset) const {
    if (container >= values_.size()) return std::nullopt;
    const auto& known = values_[container];
    auto it = known.find(offset);
    if (it == known.end()) return std::nullopt;
    return it->second;
  }

 private:
  std::vector<std::unordered_map<std::int64_t, std::int64_t>> values_;  // per container: byte offset -> value
};

}  // namespace cats::sim
