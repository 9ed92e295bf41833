// A time limit in a finding's words: three significant digits, never a bare point ("2.00",
// "15.7", "103"), since a student reads it to choose a --timeout.
#pragma once
#include <cstdio>
#include <string>

namespace engine {

inline std::string seconds_text(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, seconds < 10 ? "%.2f" : seconds < 100 ? "%.1f" : "%.0f", seconds);
  return text;
}

}  // namespace engine
