#include "classifier.hpp"

namespace cats::cache::detail {

MissClassifier::MissClassifier(std::uint64_t lines) : where_(lines), nodes_(lines) {
  free_.reserve(lines);
  for (std::uint64_t i = lines; i-- > 0;) free_.push_back(static_cast<std::uint32_t>(i));
}

MissClass MissClassifier::access(std::uint64_t line, bool hit) {
  bool first = seen_.insert(line);
  if (hit) return MissClass::None;
  if (first) return MissClass::Cold;
  return where_.contains(line) ? MissClass::Conflict : MissClass::Capacity;
}

void MissClassifier::shadowUse(std::uint64_t line, bool allocates) {
  if (std::uint32_t* node = where_.find(line)) {
    unlink(*node);
    pushFront(*node);
    return;
  }
  if (!allocates) return;
  if (free_.empty()) {
    std::uint32_t oldest = tail_;
    unlink(oldest);
    where_.erase(nodes_[oldest].line);
    free_.push_back(oldest);
  }
  std::uint32_t node = free_.back();
  free_.pop_back();
  nodes_[node].line = line;
  pushFront(node);
  where_.insert(line, node);
}

void MissClassifier::shadowRemove(std::uint64_t line) {
  std::uint32_t* node = where_.find(line);
  if (!node) return;
  unlink(*node);
  free_.push_back(*node);
  where_.erase(line);
}

void MissClassifier::unlink(std::uint32_t node) {
  Node& n = nodes_[node];
  (n.prev == kNil ? head_ : nodes_[n.prev].next) = n.next;
  (n.next == kNil ? tail_ : nodes_[n.next].prev) = n.prev;
}

void MissClassifier::pushFront(std::uint32_t node) {
  Node& n = nodes_[node];
  n.prev = kNil;
  n.next = head_;
  (head_ == kNil ? tail_ : nodes_[head_].prev) = node;
  head_ = node;
}

}  // namespace cats::cache::detail
