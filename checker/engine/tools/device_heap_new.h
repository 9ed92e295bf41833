// Device-side new for the CPU backend (cuda_cpu/device_heap.h says why): every new-expression of
// the kernel file or program, outside system headers, is given the device heap as its placement,
// `new T(args)` as `new (::cuda_cpu::device_heap) T(args)`.
//
// Left as written: a new-expression that has a placement already (or a parenthesized type, which
// reads the same), `operator new` itself, and every new-expression of a file that declares an
// operator new of its own: a class's operator new would hide the placement form.
#pragma once

#include <string>

void allocate_news_on_device_heap(std::string& text);
