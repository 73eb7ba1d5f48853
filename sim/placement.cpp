// The memory layout model; every constant is from observing glibc 2.36 under Valgrind 3.19.
#include "sim/placement.hpp"

#include <algorithm>

namespace cats::sim {

namespace {
constexpr std::uint64_t kPage = 4096;
constexpr std::uint64_t kChunkHeader = 16;  // prev_size + size of a malloc chunk
constexpr std::uint64_t kMinChunk = 32;

/* glibc's request2size: payload plus the size field, rounded to 16, at least 32. */
std::uint64_t chunkSize(std::uint64_t bytes) { return std::max(kMinChunk, alignUp(bytes + 8, 16)); }
}  // namespace

HeapModel::HeapModel(const LayoutConstants& c)
    : constants_(c), top_(c.heapBase + c.firstChunkOffset - kChunkHeader), mmapNext_(c.mmapBase), threshold_(c.mmapThreshold) {}

std::uint64_t HeapModel::allocate(std::uint64_t bytes, std::uint64_t alignment) {
  alignment = std::max<std::uint64_t>(alignment, 16);
  std::uint64_t extra = alignment > 16 ? alignment : 0;  // memalign over-allocates, then aligns
  if (bytes + extra >= threshold_) {
    std::uint64_t region = alignUp(bytes + extra + kChunkHeader, kPage);
    std::uint64_t start;
    auto reuse = freeMaps_.lower_bound(region);
    if (reuse != freeMaps_.end() && reuse->first == region && !reuse->second.empty()) {
      start = reuse->second.back();
      reuse->second.pop_back();
    } else {
      start = mmapNext_;
      mmapNext_ += region;
    }
    std::uint64_t user = alignUp(start + kChunkHeader, alignment);
    live_[user] = Block{start, region, true};
    return user;
  }
  std::uint64_t size = chunkSize(bytes + extra);
  auto reuse = freeChunks_.find(size);
  std::uint64_t chunk;
  if (reuse != freeChunks_.end() && !reuse->second.empty()) {
    chunk = reuse->second.back();
    reuse->second.pop_back();
  } else {
    chunk = top_;
    top_ += size;
  }
  std::uint64_t user = alignUp(chunk + kChunkHeader, alignment);
  live_[user] = Block{chunk, size, false};
  return user;
}

bool HeapModel::isMapped(std::uint64_t address) const {
  auto it = live_.find(address);
  return it != live_.end() && it->second.mapped;
}

void HeapModel::release(std::uint64_t address) {
  auto it = live_.find(address);
  if (it == live_.end()) return;
  Block b = it->second;
  live_.erase(it);
  if (b.mapped) {
    // glibc raises the mmap threshold to the size of a freed mapped chunk (dynamic threshold).
    if (b.chunkBytes > threshold_ && b.chunkBytes <= constants_.mmapThresholdMax) threshold_ = b.chunkBytes;
    freeMaps_[b.chunkBytes].push_back(b.chunk);
    return;
  }
  if (b.chunk + b.chunkBytes == top_) {
    top_ = b.chunk;  // a chunk next to the top merges back into it
    return;
  }
  freeChunks_[b.chunkBytes].push_back(b.chunk);
}

std::uint64_t StackModel::push(std::uint64_t bytes, std::uint64_t alignment) {
  sp_ = alignDown(sp_ - bytes, std::max<std::uint64_t>(alignment, 16));
  return sp_;
}

std::uint64_t StaticModel::place(std::uint64_t bytes, std::uint64_t alignment) {
  // GCC aligns arrays of 32 bytes or more to 32 on x86-64.
  std::uint64_t a = std::max<std::uint64_t>(alignment, bytes >= 32 ? 32 : 1);
  std::uint64_t address = alignUp(next_, a);
  next_ = address + bytes;
  return address;
}

}  // namespace cats::sim
