#include "note_groups.hpp"

#include <fmt/format.h>

#include <map>

namespace cats::report {

namespace {

/* A note split around its first balanced "( … )": head, the part inside, tail. */
struct SplitNote {
  std::string head, place, tail;
  bool hasPlace = false;
};

SplitNote split(const std::string& note) {
  const std::size_t open = note.find(" (");
  if (open == std::string::npos) return {note, "", "", false};
  int depth = 0;
  for (std::size_t i = open + 1; i < note.size(); ++i) {
    if (note[i] == '(') ++depth;
    if (note[i] == ')' && --depth == 0) return {note.substr(0, open), note.substr(open + 2, i - open - 2), note.substr(i + 1), true};
  }
  return {note, "", "", false};  // unbalanced: kept whole
}

}  // namespace

std::vector<std::string> groupedNotes(const std::vector<std::string>& notes, std::size_t shown) {
  struct Group {
    std::string head, tail, whole;
    std::vector<std::string> places;
  };
  std::vector<Group> groups;
  std::map<std::pair<std::string, std::string>, std::size_t> index;
  for (const std::string& note : notes) {
    SplitNote s = split(note);
    if (!s.hasPlace) {
      groups.push_back({note, "", note, {}});
      continue;
    }
    auto [it, added] = index.try_emplace({s.head, s.tail}, groups.size());
    if (added) groups.push_back({s.head, s.tail, note, {}});
    groups[it->second].places.push_back(s.place);
  }
  std::vector<std::string> lines;
  lines.reserve(groups.size());
  for (const Group& g : groups) {
    if (g.places.size() <= 1) {
      lines.push_back(g.whole);
      continue;
    }
    std::string places;
    for (std::size_t i = 0; i < g.places.size() && i < shown; ++i) places += (i == 0 ? "" : "; ") + g.places[i];
    if (g.places.size() > shown) places += fmt::format(" and {} more", g.places.size() - shown);
    lines.push_back(fmt::format("{} ({} places: {}){}", g.head, g.places.size(), places, g.tail));
  }
  return lines;
}

}  // namespace cats::report
