// <nvtx3/nvToolsExt.h> for the CPU backend: NVTX's markers and ranges name spans of a program
// for a profiler's timeline. There is no such profiler here: each call does nothing, and the
// ones that return a depth or an id return 0.
#pragma once

#include <cstdint>

typedef std::uint64_t nvtxRangeId_t;
typedef struct nvtxEventAttributes_v2 {
  std::uint16_t version;
  std::uint16_t size;
  std::uint32_t category;
  std::int32_t colorType;
  std::uint32_t color;
  std::int32_t payloadType;
  std::int32_t reserved0;
  std::uint64_t payload;
  std::int32_t messageType;
  const void* message;
} nvtxEventAttributes_t;

inline int nvtxRangePushA(const char*) { return 0; }
inline int nvtxRangePushW(const wchar_t*) { return 0; }
inline int nvtxRangePushEx(const nvtxEventAttributes_t*) { return 0; }
inline int nvtxRangePop() { return 0; }
inline nvtxRangeId_t nvtxRangeStartA(const char*) { return 0; }
inline nvtxRangeId_t nvtxRangeStartEx(const nvtxEventAttributes_t*) { return 0; }
inline void nvtxRangeEnd(nvtxRangeId_t) {}
inline void nvtxMarkA(const char*) {}
inline void nvtxMarkEx(const nvtxEventAttributes_t*) {}
inline void nvtxNameOsThreadA(std::uint32_t, const char*) {}
