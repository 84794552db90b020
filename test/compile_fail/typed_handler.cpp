// Handlers that must not compile, one per CAFMCP_CASE, each stopped by a
// static_assert whose text the test expects (test/CMakeLists.txt).
// CAFMCP_CASE 0 is the control: it must compile, so that a failing case
// fails for its own reason and not because this file or its includes broke.
#include "cafmcp/typed_prompt.hpp"
#include "cafmcp/typed_tool.hpp"

struct args {
  std::string city;
  int days = 0;
};
CAFMCP_FIELDS(args, (city), (days));

struct other {
  std::string name;
};
CAFMCP_FIELDS(other, (name));

struct not_described {
  std::string city;
};

int main() {
#if CAFMCP_CASE == 0
  auto t = cafmcp::typed_tool("ok", "", [](const args& a) { return a.city; });
  auto p = cafmcp::typed_prompt("ok", "", [](const other& a) { return a.name; });
  (void)t;
  (void)p;
#elif CAFMCP_CASE == 1 // the handler reads another type than the schema's
  cafmcp::typed_tool<args>("t", "", [](const other& o) { return o.name; });
#elif CAFMCP_CASE == 2 // no schema for the argument type
  cafmcp::typed_tool("t", "", [](const not_described& a) { return a.city; });
#elif CAFMCP_CASE == 3 // a result that is neither text nor a described struct
  cafmcp::typed_tool("t", "", [](const args& a) { return a.days; });
#elif CAFMCP_CASE == 4 // prompt arguments are strings
  cafmcp::typed_prompt("p", "", [](const args& a) { return a.city; });
#elif CAFMCP_CASE == 5 // a generic lambda says nothing about its type
  cafmcp::typed_tool("t", "", [](const auto& a) { return a.city; });
#endif
}
