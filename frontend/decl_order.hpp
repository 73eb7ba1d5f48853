// Ordered sets and maps of variables walk them in source order, not by heap address: addresses
// change with anything that allocates before them (a precompiled preamble does), and a walk
// picks the reason a warning names and the order unknowns are made in.
#pragma once

#include "clang_compat.hpp"  // first: see the header

#include <map>
#include <set>

namespace cats::frontend {

/// Declarations by location (the raw encoding: a file's offsets, then macro expansions in the
/// order they were made, the same with or without a preamble); the address only between two at
/// one location.
struct DeclOrder {
  bool operator()(const clang::Decl* a, const clang::Decl* b) const {
    const auto la = a->getLocation().getRawEncoding();
    const auto lb = b->getLocation().getRawEncoding();
    if (la != lb) return la < lb;
    return std::less<const clang::Decl*>()(a, b);
  }
};

using VarSet = std::set<const clang::VarDecl*, DeclOrder>;
template <class T>
using VarMap = std::map<const clang::VarDecl*, T, DeclOrder>;

}  // namespace cats::frontend
