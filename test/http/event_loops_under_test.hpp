#pragma once
// How many event loops the HTTP suites' transport runs (http_fixture.hpp):
// defined by event_loops_under_test.cpp, which each test executable compiles
// with its own count, so that the suites are compiled once for both.
namespace cafmcp::test {
int event_loops_under_test();
} // namespace cafmcp::test
