// Which places of a preprocessed C++ file lie at namespace scope: at file scope, or inside
// namespaces and `extern "C"` blocks only, not inside a function, a class or an initializer.
// An extern declaration means the same in either place, but compilers do not treat the two
// alike (dynamic_shared_binding.cpp).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

class NamespaceScopes {
 public:
  explicit NamespaceScopes(const std::string& text);

  bool at_namespace_scope(std::size_t position) const;

 private:
  // Where the text enters a brace that is not a namespace's (even indices) and where it leaves
  // the outermost such brace again (odd indices).
  std::vector<std::size_t> edges_;
};
