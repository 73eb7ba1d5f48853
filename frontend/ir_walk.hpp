// Visiting every block of an IR function body (for the whole-program passes after lowering).
#pragma once

#include "ir/ir.hpp"

#include <functional>

namespace cats::frontend {

/// Calls "visit" on "b" and every block nested in it; "intoLoops" says whether loop headers and
/// bodies count. "visit" may insert or erase nodes of the block it is given.
inline void forEachBlock(ir::Block& b, const std::function<void(ir::Block&)>& visit, bool intoLoops = true) {
  visit(b);
  for (auto& node : b) {
    if (auto* l = std::get_if<ir::Loop>(&node.value)) {
      if (intoLoops) forEachBlock(l->header, visit), forEachBlock(l->body, visit);
    } else if (auto* br = std::get_if<ir::Branch>(&node.value)) {
      for (auto& arm : br->arms) forEachBlock(arm.body, visit, intoLoops);
    } else if (auto* p = std::get_if<ir::ParallelRegion>(&node.value)) {
      forEachBlock(p->body, visit, intoLoops);
    }
  }
}

}  // namespace cats::frontend
