// The array form of one access event for the polyhedral model: subscripts (outermost first),
// the extents of the dimensions they index and the bytes of one element of the innermost.
// Private to tracer/.
#pragma once

#include "tracer/trace.hpp"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace cats::trace {

struct ArrayForm {
  std::vector<sym::Expr> subscripts;
  std::vector<sym::Expr> extents;  // outermost may be 0 (unknown)
  std::int64_t elementBytes = 1;
  std::optional<std::string> reason;  // a subscript is not affine in "dims" and the parameters
};

/// "e" (an access of "c") as an array access over the iterators "dims": the frontend's
/// subscripts when they match the container's dimensions, else one subscript, the byte offset
/// in elements (in bytes when elements do not divide it). A single subscript n*q + k, with n a
/// parameter and 0 <= k < n implied by k's loop in "loops" (iterator name -> Loop scope), is
/// delinearised into [q][k] with inner extent n (Polly's delinearisation, on loop bounds).
ArrayForm arrayForm(const Event& e, const Container& c, const std::set<std::string>& dims, const std::map<std::string, const Scope*>& loops,
                    const sym::Context& ctx);

}  // namespace cats::trace
