// libFuzzer program of the frontend target (fuzz/entries.hpp).
#include "entries.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) { return cats::fuzz::frontendOne(data, size); }
