// Which memory object the compiler can name at each access, and which accesses it must assume
// may overlap: named objects (declared arrays, distinct malloc results) where the access is
// compiled in the function that declares or allocates them, unknown through pointers it cannot
// follow; type-based aliasing under -fstrict-aliasing.
#include "alias_view.hpp"

#include <algorithm>

namespace cats::sim::compiler {

namespace {

/* "type" without qualifiers and signedness: the type-based aliasing class. */
std::string aliasClass(std::string type) {
  for (const char* word : {"const ", "volatile ", "unsigned ", "signed ", "restrict "}) {
    for (auto at = type.find(word); at != std::string::npos; at = type.find(word)) type.erase(at, std::string(word).size());
  }
  while (!type.empty() && type.back() == ' ') type.pop_back();
  if (type == "unsigned" || type == "signed") return "int";
  return type;
}

/* Whether an access of type class "type" may alias any type (char) or is not a plain scalar we can compare. */
bool aliasesAnything(const std::string& type) {
  return type.empty() || type == "char" || type.find("struct") != std::string::npos || type.find("union") != std::string::npos ||
         type.find('*') != std::string::npos || type.find('[') != std::string::npos;
}

/* The type an access event reads or writes: its field's, else the container's element type. */
std::string accessType(const trace::Trace& contexts, const trace::Event& e) {
  const trace::Container& c = contexts.containers[e.container];
  if (!e.field.empty()) {
    auto f = std::find_if(c.fields.begin(), c.fields.end(), [&](const ir::Field& x) { return x.name == e.field; });
    if (f != c.fields.end()) return aliasClass(f->type);
  }
  return aliasClass(c.elementType);
}


/* Per container, the scope that declares or allocates it: its first Alloc event's, else its first access's. */
std::vector<std::optional<std::size_t>> homesOf(const trace::Trace& contexts) {
  std::vector<std::optional<std::size_t>> home(contexts.containers.size());
  for (const trace::Event& e : contexts.events)
    if (e.kind == trace::EventKind::Alloc && !home[e.container]) home[e.container] = e.scope;
  for (const trace::Event& e : contexts.events)
    if (!home[e.container]) home[e.container] = e.scope;
  return home;
}

}  // namespace

void viewAliases(const trace::Trace& contexts, const CompilerTarget& target, CompilerView& view) {
  std::size_t n = contexts.events.size();
  view.objectOf.assign(n, std::nullopt);
  view.restrictPointer.assign(n, false);
  view.accessTypes.assign(n, std::string());
  bool noStrict = std::find(target.ignoredFlags.begin(), target.ignoredFlags.end(), "-fno-strict-aliasing") != target.ignoredFlags.end();
  view.strictAliasing = !noStrict && (target.compiler == CompilerKind::Gcc ? target.optLevel >= 2 : target.optLevel >= 1);
  std::vector<std::optional<std::size_t>> homeEntry = homesOf(contexts);  // the compiled body that creates each container
  for (auto& h : homeEntry)
    if (h) h = compiledEntry(contexts, view.calls, *h);
  for (std::size_t i = 0; i < n; ++i) {
    const trace::Event& e = contexts.events[i];
    const trace::Container& c = contexts.containers[e.container];
    view.restrictPointer[i] = c.isRestrict || e.viaRestrict;
    view.accessTypes[i] = accessType(contexts, e);
    switch (c.kind) {
      case ir::ContainerKind::Global:
      case ir::ContainerKind::Static: view.objectOf[i] = c.id; break;
      case ir::ContainerKind::Stack:
      case ir::ContainerKind::Heap:
        if (homeEntry[c.id] && *homeEntry[c.id] == compiledEntry(contexts, view.calls, e.scope)) view.objectOf[i] = c.id;
        break;
      case ir::ContainerKind::Parameter:
      case ir::ContainerKind::Pointee: break;
    }
  }
}

bool CompilerView::mayAlias(const trace::Trace& contexts, std::size_t a, std::size_t b) const {
  const trace::Event& x = contexts.events[a];
  const trace::Event& y = contexts.events[b];
  if (x.container == y.container) {
    // The same base at a constant distance (two fields of r[i], a[i] and a[i + 1]): the alias
    // oracles of GCC and Clang see disjoint bytes.
    const std::optional<std::int64_t> distance = sym::toInteger((x.offset - y.offset).expand());
    if (distance && (*distance >= y.bytes || -*distance >= x.bytes)) return false;
  }
  if (objectOf[a] && objectOf[b]) return *objectOf[a] == *objectOf[b];
  if (strictAliasing && !aliasesAnything(accessTypes[a]) && !aliasesAnything(accessTypes[b]) && accessTypes[a] != accessTypes[b]) return false;
  if (x.container == y.container && !objectOf[a] && !objectOf[b]) return true;
  return !(restrictPointer[a] || restrictPointer[b]);
}

}  // namespace cats::sim::compiler
