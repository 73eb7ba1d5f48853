// libFuzzer program of the compiler report target (fuzz/entries.hpp).
#include "entries.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) { return cats::fuzz::reportParserOne(data, size); }
