#pragma once
// A quick tool that answers with the name of the thread it ran on: the
// tests of where handlers run (a transport's reader, an event loop, an
// actor worker) call it and read the answer's text.
#include <pthread.h>

#include <string>

#include "cafmcp/server.hpp"

namespace cafmcp::test {

inline tool where_tool() {
  tool where;
  where.name = "where";
  where.description = "names the thread it runs on";
  where.quick = true;
  where.handler = [](const json&, request_context&) {
    char name[16] = {};
    pthread_getname_np(pthread_self(), name, sizeof name);
    return tool_result::text(name);
  };
  return where;
}

} // namespace cafmcp::test
