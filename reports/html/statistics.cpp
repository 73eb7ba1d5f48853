// Access statistics (C.A.T.S. paper, section 4.2): the histogram of the four access classes for
// the program, per container and per function, in sortable tables whose rows unfold into their
// access events.
#include "parts.hpp"
#include "reports/analysis.hpp"

#include <fmt/format.h>

#include <map>

namespace cats::report::html {

namespace {

constexpr std::array<const char*, 4> kClassCss{"c0", "c1", "c2", "c3"};
constexpr std::size_t kEventsPerRow = 60;

std::string bar(const ClassHistogram& h, std::size_t widest) {
  constexpr double kBarWidth = 240;
  std::string out = fmt::format("<svg class=\"bar\" width=\"{}\" height=\"12\">", coord(kBarWidth));
  double x = 0;
  for (std::size_t c = 0; c < 4; ++c) {
    double w = widest ? kBarWidth * static_cast<double>(h.counts[c]) / static_cast<double>(widest) : 0;
    if (w > 0) out += fmt::format("<rect class=\"{}\" x=\"{}\" width=\"{}\" height=\"12\"/>", kClassCss[c], coord(x), coord(w));
    x += w;
  }
  return out + "</svg>";
}

std::string eventList(const trace::Trace& t, const std::vector<std::size_t>& events) {
  std::string out = "<ul class=\"events\">";
  for (std::size_t i = 0; i < events.size() && i < kEventsPerRow; ++i) {
    const trace::Event& e = t.events[events[i]];
    out += fmt::format("<li><code>{}</code> {} {} <span class=\"cls {}\">{}</span></li>", escape(e.text.empty() ? e.name : e.text),
                       e.mode == ir::AccessMode::Read ? "read" : "write", escape(e.loc.str()),
                       kClassCss[static_cast<std::size_t>(e.classification.kind)], escape(trace::toString(e.classification.kind)));
  }
  if (events.size() > kEventsPerRow) out += fmt::format("<li>… and {} more</li>", number(events.size() - kEventsPerRow));
  return out + "</ul>";
}

std::string table(const std::string& title, const std::map<std::string, ClassHistogram>& rows, const trace::Trace& t,
                  const std::map<std::string, std::vector<std::size_t>>& events) {
  std::size_t widest = 0;
  for (const auto& [_, h] : rows) widest = std::max(widest, h.total());
  std::string out = fmt::format("<h3>Per {}</h3>\n<table class=\"sortable\"><thead><tr><th>{}</th>", title, title);
  for (const char* name : {"constant", "stride-1", "stride-k", "indirect", "total"}) out += fmt::format("<th class=\"num\">{}</th>", name);
  out += "<th>classes</th></tr></thead><tbody>\n";
  for (const auto& [name, h] : rows) {
    auto listed = events.find(name);
    out += fmt::format("<tr><td data-v=\"{0}\"><details><summary>{0}</summary>{1}</details></td>", escape(name),
                       listed == events.end() ? std::string() : eventList(t, listed->second));
    for (std::size_t c = 0; c < 4; ++c) out += fmt::format("<td class=\"num\" data-v=\"{}\">{}</td>", h.counts[c], number(h.counts[c]));
    out += fmt::format("<td class=\"num\" data-v=\"{}\">{}</td><td>{}</td></tr>\n", h.total(), number(h.total()), bar(h, widest));
  }
  return out + "</tbody></table>\n";
}

}  // namespace

std::string statisticsSection(const HtmlReportInput& in) {
  const trace::Trace& t = in.summaries;
  Histograms h = histograms(t);
  std::map<std::string, std::vector<std::size_t>> byContainer, byFunction;
  for (std::size_t e = 0; e < t.events.size(); ++e) {
    if (t.events[e].kind != trace::EventKind::Access) continue;
    byContainer[t.containers.at(t.events[e].container).name].push_back(e);
    byFunction[t.functionOf(t.events[e].scope)].push_back(e);
  }
  std::string out = "<section id=\"statistics\"><h2>Access statistics</h2>\n";
  out += fmt::format("<p>{} access events in the trace (each function once), by class of their byte offset: "
                     "<span class=\"cls c0\">constant</span> <span class=\"cls c1\">stride-1</span> "
                     "<span class=\"cls c2\">stride-k</span> <span class=\"cls c3\">indirect</span>. Click a heading to sort, a name to list its events.</p>\n",
                     number(h.program.total()));
  out += table("program", {{"whole program", h.program}}, t, {});
  out += table("container", h.byContainer, t, byContainer);
  out += table("function", h.byFunction, t, byFunction);
  return out + "</section>\n";
}

}  // namespace cats::report::html
