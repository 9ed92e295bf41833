// EXPECT(condition) for the test programs: prints the line of a failed expectation and counts it
// in `failures`, which main reports and returns (tests/programs/test_programs.py reads both).
// Included by path, "include/expect.cuh", so that nvcc and checker/run find it without -I.
#pragma once

#include <cstdio>

static int failures = 0;
#define EXPECT(condition)                                          \
  do {                                                             \
    if (!(condition)) {                                            \
      std::printf("line %d: expected %s\n", __LINE__, #condition); \
      ++failures;                                                  \
    }                                                              \
  } while (0)
