// libFuzzer program of the trace reader target (fuzz/entries.hpp).
#include "entries.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) { return cats::fuzz::traceReaderOne(data, size); }
