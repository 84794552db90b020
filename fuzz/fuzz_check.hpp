#pragma once
// An invariant a fuzz target asserts: when it does not hold, say which and
// abort, so libFuzzer keeps the input as a crash (assert() would vanish
// under NDEBUG).
#include <cstdio>
#include <cstdlib>

#define FUZZ_CHECK(cond)                                                                                     \
  do {                                                                                                       \
    if (!(cond)) {                                                                                           \
      std::fprintf(stderr, "%s:%d: invariant failed: %s\n", __FILE__, __LINE__, #cond);                      \
      std::abort();                                                                                          \
    }                                                                                                        \
  } while (false)
