// <nvtx3/nvToolsExt.h> for the CPU backend: NVTX's markers and ranges name spans of a program
// for a profiler's timeline. There is no such profiler here: each call does nothing, and the
// ones that return a depth or an id return 0.
#ifndef CUDA_CPU_COMPAT_NVTX3_NVTOOLSEXT_H_
#define CUDA_CPU_COMPAT_NVTX3_NVTOOLSEXT_H_

#include <cstdint>

#define NVTX_VERSION 3

typedef std::uint64_t nvtxRangeId_t;
typedef struct nvtxStringHandle* nvtxStringHandle_t;

// An event's attributes, laid out and named as NVTX declares them: programs fill them in by name
// (attributes.message.ascii = "copy"; attributes.payload.llValue = n).
typedef enum nvtxColorType_t { NVTX_COLOR_UNKNOWN = 0, NVTX_COLOR_ARGB = 1 } nvtxColorType_t;
typedef enum nvtxMessageType_t {
  NVTX_MESSAGE_UNKNOWN = 0,
  NVTX_MESSAGE_TYPE_ASCII = 1,
  NVTX_MESSAGE_TYPE_UNICODE = 2,
  NVTX_MESSAGE_TYPE_REGISTERED = 3
} nvtxMessageType_t;
typedef enum nvtxPayloadType_t {
  NVTX_PAYLOAD_UNKNOWN = 0,
  NVTX_PAYLOAD_TYPE_UNSIGNED_INT64 = 1,
  NVTX_PAYLOAD_TYPE_INT64 = 2,
  NVTX_PAYLOAD_TYPE_DOUBLE = 3,
  NVTX_PAYLOAD_TYPE_UNSIGNED_INT32 = 4,
  NVTX_PAYLOAD_TYPE_INT32 = 5,
  NVTX_PAYLOAD_TYPE_FLOAT = 6
} nvtxPayloadType_t;
typedef union nvtxMessageValue_t {
  const char* ascii;
  const wchar_t* unicode;
  nvtxStringHandle_t registered;
} nvtxMessageValue_t;
typedef struct nvtxEventAttributes_v2 {
  std::uint16_t version;
  std::uint16_t size;
  std::uint32_t category;
  std::int32_t colorType;
  std::uint32_t color;
  std::int32_t payloadType;
  std::int32_t reserved0;
  union payload_t {
    std::uint64_t ullValue;
    std::int64_t llValue;
    double dValue;
    std::uint32_t uiValue;
    std::int32_t iValue;
    float fValue;
  } payload;
  std::int32_t messageType;
  nvtxMessageValue_t message;
} nvtxEventAttributes_v2;
typedef struct nvtxEventAttributes_v2 nvtxEventAttributes_t;
#define NVTX_EVENT_ATTRIB_STRUCT_SIZE (static_cast<std::uint16_t>(sizeof(nvtxEventAttributes_t)))

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

#endif  // CUDA_CPU_COMPAT_NVTX3_NVTOOLSEXT_H_
