// A unified diff of one file's two texts (`review --fix-diff`, docs/review.md): `--- a/PATH`,
// `+++ b/PATH`, hunks with three lines of context, as `diff -u` writes them, so that `patch -p1`
// and `git apply` take it from the directory PATH is relative to.
#pragma once

#include <string>

namespace cats::report {

/// The diff from "before" to "after" of the file at "path"; "" when the texts are equal. A last
/// line without a newline is marked `\ No newline at end of file`.
std::string unifiedDiff(const std::string& path, const std::string& before, const std::string& after);

}  // namespace cats::report
