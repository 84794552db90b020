#include "event_loops_under_test.hpp"

// 1 in cafmcp_http_tests; cafmcp_http_multiloop_tests sets 3, where
// connections take turns over the loops, so a test's GET stream or later
// POST usually arrives on another loop than its session's and moves there.
#ifndef CAFMCP_TEST_EVENT_LOOPS
#define CAFMCP_TEST_EVENT_LOOPS 1
#endif

int cafmcp::test::event_loops_under_test() {
  return CAFMCP_TEST_EVENT_LOOPS;
}
