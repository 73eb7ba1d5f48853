// Deterministic text dump of the IR (--dump ir), for tests and debugging.
#pragma once

#include "ir/ir.hpp"

#include <string>

namespace cats::ir {

std::string dump(const Program& program);
std::string describe(const Container& c);  // "double[n][n], 8 B elements, 8*n^2 B"
std::string comparisonText(Comparison c);

}  // namespace cats::ir
