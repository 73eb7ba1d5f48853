// The simulation's notes for people: notes that say the same thing of different places
// ("loops with an early exit (f.c:10:5 (loop i)) run their full trip count") become one line
// naming the places, so that real code's hundreds of notes read at a glance. The JSON report
// keeps every note as it is.
#pragma once

#include <string>
#include <vector>

namespace cats::report {

/// "notes" as lines, in the order of their first appearance: a note whose text differs from
/// others only in its first parenthesised part joins them as "what (N places: a; b; c and K
/// more) consequence", listing at most "shown" places.
std::vector<std::string> groupedNotes(const std::vector<std::string>& notes, std::size_t shown = 4);

}  // namespace cats::report
