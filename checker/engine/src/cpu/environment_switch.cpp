#include "environment_switch.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace engine::cpu {

bool environment_switch(const char* name, const char* usual, const char* other) {
  const char* text = std::getenv(name);
  if (text == nullptr || *text == '\0' || std::strcmp(text, usual) == 0) return true;
  if (std::strcmp(text, other) == 0) return false;
  std::fprintf(stderr, "%s=%s: expected \"%s\" or \"%s\"\n", name, text, usual, other);
  std::exit(2);
}

}  // namespace engine::cpu
