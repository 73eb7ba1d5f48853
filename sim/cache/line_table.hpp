// A hash map from line numbers to 32-bit values for the miss classifier: open addressing with
// linear probing in two flat arrays, so that inserting a line allocates nothing (std::unordered_map
// allocates a node per line, which made classification ten times slower than simulation).
// Deletion shifts the following entries back instead of leaving tombstones.
#pragma once

#include <cstdint>
#include <vector>

namespace cats::cache::detail {

class LineTable {
 public:
  static constexpr std::uint64_t kEmpty = ~std::uint64_t{0};  // never a line number (see Hierarchy::access)

  explicit LineTable(std::uint64_t expected = 16) { rehash(capacityFor(expected)); }

  std::uint64_t size() const { return size_; }

  /* The value of "line", or nullptr. */
  std::uint32_t* find(std::uint64_t line) {
    for (std::uint64_t i = home(line);; i = (i + 1) & mask_) {
      if (keys_[i] == line) return &values_[i];
      if (keys_[i] == kEmpty) return nullptr;
    }
  }
  bool contains(std::uint64_t line) { return find(line) != nullptr; }

  /* Add "line" with "value" unless present; true if added. */
  bool insert(std::uint64_t line, std::uint32_t value) {
    if (2 * (size_ + 1) > keys_.size()) rehash(2 * keys_.size());
    std::uint64_t i = home(line);
    for (; keys_[i] != kEmpty; i = (i + 1) & mask_)
      if (keys_[i] == line) return false;
    keys_[i] = line;
    values_[i] = value;
    ++size_;
    return true;
  }

  /* Remove "line" if present. */
  void erase(std::uint64_t line) {
    std::uint64_t i = home(line);
    while (keys_[i] != line) {
      if (keys_[i] == kEmpty) return;
      i = (i + 1) & mask_;
    }
    for (std::uint64_t j = (i + 1) & mask_; keys_[j] != kEmpty; j = (j + 1) & mask_) {
      std::uint64_t h = home(keys_[j]);
      bool movable = i <= j ? (h <= i || h > j) : (h <= i && h > j);
      if (!movable) continue;
      keys_[i] = keys_[j];
      values_[i] = values_[j];
      i = j;
    }
    keys_[i] = kEmpty;
    --size_;
  }

 private:
  static std::uint64_t capacityFor(std::uint64_t expected) {
    std::uint64_t c = 16;
    while (c < 2 * expected) c *= 2;
    return c;
  }

  /* Fibonacci hashing: consecutive lines land far apart. */
  std::uint64_t home(std::uint64_t line) const { return (line * 0x9E3779B97F4A7C15ull) >> shift_; }

  void rehash(std::uint64_t capacity) {
    std::vector<std::uint64_t> keys(capacity, kEmpty);
    std::vector<std::uint32_t> values(capacity);
    keys.swap(keys_);
    values.swap(values_);
    mask_ = capacity - 1;
    shift_ = 64;
    for (std::uint64_t c = capacity; c > 1; c /= 2) --shift_;
    size_ = 0;
    for (std::size_t i = 0; i < keys.size(); ++i)
      if (keys[i] != kEmpty) insert(keys[i], values[i]);
  }

  std::vector<std::uint64_t> keys_;
  std::vector<std::uint32_t> values_;
  std::uint64_t mask_ = 0;
  unsigned shift_ = 64;
  std::uint64_t size_ = 0;
};

}  // namespace cats::cache::detail
