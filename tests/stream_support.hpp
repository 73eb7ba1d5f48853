// Running an address stream to its end in tests, and picking accesses out of what it made.
#pragma once

#include "sim/stream.hpp"
#include "tracer/trace.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace cats::test {

/// Every record "stream" makes, "capacity" at a time.
inline std::vector<sim::Record> drainStream(sim::AddressStream& stream, std::size_t capacity = 4096) {
  std::vector<sim::Record> all;
  std::vector<sim::Record> buffer(capacity);
  while (std::size_t n = stream.next(buffer.data(), buffer.size())) all.insert(all.end(), buffer.begin(), buffer.begin() + static_cast<std::ptrdiff_t>(n));
  return all;
}

inline std::vector<sim::Record> drain(const sim::Program& program, const sim::StreamOptions& options = {}, std::size_t capacity = 4096) {
  sim::AddressStream stream(program, options);
  return drainStream(stream, capacity);
}

/// Addresses of the accesses whose source text is "text", in stream order.
inline std::vector<std::uint64_t> addressesOf(const std::vector<sim::Record>& records, const trace::Trace& t, const std::string& text) {
  std::vector<std::uint64_t> out;
  for (const auto& r : records)
    if (t.events[r.tag].text == text) out.push_back(r.address);
  return out;
}

}  // namespace cats::test
