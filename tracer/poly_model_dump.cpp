// The polyhedral model as deterministic text (`analyze --dump model`): one block per
// statement (domain, schedule, accesses), then the non-affine accesses with their reasons.
#include "tracer/poly_model.hpp"

namespace cats::trace {

namespace {

std::string joined(const std::vector<sym::Expr>& list, const std::string& separator) {
  std::string out;
  for (const auto& e : list) out += (out.empty() ? "" : separator) + sym::print(e);
  return out;
}

std::string names(const std::vector<sym::Symbol>& list) {
  std::string out;
  for (const auto& s : list) out += (out.empty() ? "" : ", ") + s.get_name();
  return out;
}

/* "[n] -> { S0[i, j] : exists t : c1 and c2 }", in our expressions (not isl's text). */
std::string setText(const sym::IntegerSet& set) {
  std::string body;
  for (const auto& c : set.constraints) body += (body.empty() ? "" : " and ") + c.str();
  if (!set.existentials.empty()) body = "exists " + names(set.existentials) + " : " + (body.empty() ? "true" : body);
  return "[" + names(set.params) + "] -> { " + set.name + "[" + names(set.dims) + "]" + (body.empty() ? "" : " : " + body) + " }";
}

std::string accessText(const PolyAccess& a, const Trace& t) {
  const Event& e = t.events.at(a.event);
  std::string extents;
  for (const auto& x : a.extents) extents += "[" + (x.is_zero() ? std::string("?") : sym::print(x)) + "]";
  std::string out = "    " + std::string(toString(a.kind)) + " " + t.containers.at(a.container).name + "[" + joined(a.subscripts, "][") + "]";
  if (!e.field.empty()) out += "." + e.field;
  out += "  extents " + extents + " x " + std::to_string(a.elementBytes) + " B";
  if (a.multiplicity != 1) out += "  x" + std::to_string(a.multiplicity);
  if (a.loopHeader) out += "  header";
  return out + "  (" + e.text + " at " + e.loc.str() + ")\n";
}

}  // namespace

std::string dumpPolyModel(const PolyModel& model, const Trace& contexts) {
  std::string out = "params: [" + names(model.params) + "]\n";
  for (const auto& s : model.statements) {
    out += s.name + " in " + s.function + " at " + s.loc.str() + (s.exactDomain ? "" : " (inexact domain: may run on a subset)") + "\n";
    out += "  domain   " + setText(s.domain) + "\n";
    out += "  schedule [" + joined(s.schedule, ", ") + "]\n";
    for (const auto& a : s.accesses) out += accessText(a, contexts);
  }
  for (const auto& n : model.nonAffine) {
    const Event& e = contexts.events.at(n.event);
    out += "not affine: " + e.text + " at " + e.loc.str() + ": " + n.reason + "\n";
  }
  char share[32];
  std::snprintf(share, sizeof share, "%.1f", 100.0 * model.coverage());
  return out + "coverage: " + share + "% of the accesses in statements\n";
}

}  // namespace cats::trace
