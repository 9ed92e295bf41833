// The runtime calls of what the CPU backend does not model: CUDA graphs and stream capture,
// texture and surface objects and the arrays behind them, interprocess handles, and peer
// access between devices (there is one device). They are declared as CUDA declares them, so
// that a program using them compiles; the first one called stops the program with one line
// that names it (cuda_cpu::not_modelled, status 125), as `checker/run` reports.
#ifndef CUDA_CPU_UNSUPPORTED_API_H_
#define CUDA_CPU_UNSUPPORTED_API_H_

#include <cstddef>

#include "cuda_cpu/driver_types.h"
#include "cuda_cpu/texture_types.h"

namespace cuda_cpu {
[[noreturn]] void not_modelled(const char* call);  // cuda_cpu/host_launch.h
}  // namespace cuda_cpu

#define CUDA_CPU_NOT_MODELLED(call) \
  { cuda_cpu::not_modelled(#call); }

// --- Graphs and stream capture --------------------------------------------------------------
inline cudaError_t cudaStreamBeginCapture(cudaStream_t, cudaStreamCaptureMode) CUDA_CPU_NOT_MODELLED(cudaStreamBeginCapture)
inline cudaError_t cudaStreamBeginCaptureToGraph(cudaStream_t, cudaGraph_t, const cudaGraphNode_t*, const void*,
                                                 std::size_t, cudaStreamCaptureMode = cudaStreamCaptureModeGlobal)
    CUDA_CPU_NOT_MODELLED(cudaStreamBeginCaptureToGraph)
inline cudaError_t cudaStreamEndCapture(cudaStream_t, cudaGraph_t*) CUDA_CPU_NOT_MODELLED(cudaStreamEndCapture)
inline cudaError_t cudaStreamGetCaptureInfo(cudaStream_t, cudaStreamCaptureStatus*, unsigned long long* = nullptr,
                                            cudaGraph_t* = nullptr, const cudaGraphNode_t** = nullptr,
                                            std::size_t* = nullptr) CUDA_CPU_NOT_MODELLED(cudaStreamGetCaptureInfo)
inline cudaError_t cudaStreamUpdateCaptureDependencies(cudaStream_t, cudaGraphNode_t*, std::size_t, unsigned int = 0)
    CUDA_CPU_NOT_MODELLED(cudaStreamUpdateCaptureDependencies)
// CUDA 13's forms, with edge data (CUDA 12.3 to 12.9 call them ..._v2 and ..._v3).
inline cudaError_t cudaStreamUpdateCaptureDependencies(cudaStream_t, cudaGraphNode_t*, const cudaGraphEdgeData*,
                                                       std::size_t, unsigned int)
    CUDA_CPU_NOT_MODELLED(cudaStreamUpdateCaptureDependencies)
inline cudaError_t cudaStreamUpdateCaptureDependencies_v2(cudaStream_t, cudaGraphNode_t*, const cudaGraphEdgeData*,
                                                          std::size_t, unsigned int = 0)
    CUDA_CPU_NOT_MODELLED(cudaStreamUpdateCaptureDependencies_v2)
inline cudaError_t cudaStreamGetCaptureInfo(cudaStream_t, cudaStreamCaptureStatus*, unsigned long long*, cudaGraph_t*,
                                            const cudaGraphNode_t**, const cudaGraphEdgeData**, std::size_t*)
    CUDA_CPU_NOT_MODELLED(cudaStreamGetCaptureInfo)
inline cudaError_t cudaStreamGetCaptureInfo_v3(cudaStream_t, cudaStreamCaptureStatus*, unsigned long long* = nullptr,
                                               cudaGraph_t* = nullptr, const cudaGraphNode_t** = nullptr,
                                               const cudaGraphEdgeData** = nullptr, std::size_t* = nullptr)
    CUDA_CPU_NOT_MODELLED(cudaStreamGetCaptureInfo_v3)
inline cudaError_t cudaGraphCreate(cudaGraph_t*, unsigned int) CUDA_CPU_NOT_MODELLED(cudaGraphCreate)
inline cudaError_t cudaGraphDestroy(cudaGraph_t) CUDA_CPU_NOT_MODELLED(cudaGraphDestroy)
inline cudaError_t cudaGraphClone(cudaGraph_t*, cudaGraph_t) CUDA_CPU_NOT_MODELLED(cudaGraphClone)
inline cudaError_t cudaGraphInstantiate(cudaGraphExec_t*, cudaGraph_t, unsigned long long = 0)
    CUDA_CPU_NOT_MODELLED(cudaGraphInstantiate)
// The CUDA 11 form, which CUDA 12's cuda_runtime.h keeps for C++.
inline cudaError_t cudaGraphInstantiate(cudaGraphExec_t*, cudaGraph_t, cudaGraphNode_t*, char*, std::size_t)
    CUDA_CPU_NOT_MODELLED(cudaGraphInstantiate)
inline cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t*, cudaGraph_t, unsigned long long = 0)
    CUDA_CPU_NOT_MODELLED(cudaGraphInstantiateWithFlags)
inline cudaError_t cudaGraphUpload(cudaGraphExec_t, cudaStream_t) CUDA_CPU_NOT_MODELLED(cudaGraphUpload)
inline cudaError_t cudaGraphLaunch(cudaGraphExec_t, cudaStream_t) CUDA_CPU_NOT_MODELLED(cudaGraphLaunch)
inline cudaError_t cudaGraphExecDestroy(cudaGraphExec_t) CUDA_CPU_NOT_MODELLED(cudaGraphExecDestroy)
inline cudaError_t cudaGraphGetNodes(cudaGraph_t, cudaGraphNode_t*, std::size_t*) CUDA_CPU_NOT_MODELLED(cudaGraphGetNodes)
inline cudaError_t cudaGraphAddDependencies(cudaGraph_t, const cudaGraphNode_t*, const cudaGraphNode_t*, std::size_t)
    CUDA_CPU_NOT_MODELLED(cudaGraphAddDependencies)
inline cudaError_t cudaGraphAddDependencies(cudaGraph_t, const cudaGraphNode_t*, const cudaGraphNode_t*,
                                            const cudaGraphEdgeData*, std::size_t)
    CUDA_CPU_NOT_MODELLED(cudaGraphAddDependencies)
inline cudaError_t cudaGraphAddNode(cudaGraphNode_t*, cudaGraph_t, const cudaGraphNode_t*, std::size_t,
                                    cudaGraphNodeParams*) CUDA_CPU_NOT_MODELLED(cudaGraphAddNode)
inline cudaError_t cudaGraphAddNode(cudaGraphNode_t*, cudaGraph_t, const cudaGraphNode_t*, const cudaGraphEdgeData*,
                                    std::size_t, cudaGraphNodeParams*) CUDA_CPU_NOT_MODELLED(cudaGraphAddNode)
inline cudaError_t cudaGraphAddNode_v2(cudaGraphNode_t*, cudaGraph_t, const cudaGraphNode_t*, const cudaGraphEdgeData*,
                                       std::size_t, cudaGraphNodeParams*) CUDA_CPU_NOT_MODELLED(cudaGraphAddNode_v2)
inline cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t*, cudaGraph_t, const cudaGraphNode_t*, std::size_t)
    CUDA_CPU_NOT_MODELLED(cudaGraphAddEmptyNode)
inline cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t*, cudaGraph_t, const cudaGraphNode_t*, std::size_t,
                                          const cudaKernelNodeParams*) CUDA_CPU_NOT_MODELLED(cudaGraphAddKernelNode)
inline cudaError_t cudaGraphAddMemcpyNode(cudaGraphNode_t*, cudaGraph_t, const cudaGraphNode_t*, std::size_t,
                                          const cudaMemcpy3DParms*) CUDA_CPU_NOT_MODELLED(cudaGraphAddMemcpyNode)
inline cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t*, cudaGraph_t, const cudaGraphNode_t*, std::size_t, void*,
                                            const void*, std::size_t, cudaMemcpyKind)
    CUDA_CPU_NOT_MODELLED(cudaGraphAddMemcpyNode1D)
inline cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t*, cudaGraph_t, const cudaGraphNode_t*, std::size_t,
                                          const cudaMemsetParams*) CUDA_CPU_NOT_MODELLED(cudaGraphAddMemsetNode)
inline cudaError_t cudaGraphAddHostNode(cudaGraphNode_t*, cudaGraph_t, const cudaGraphNode_t*, std::size_t,
                                        const cudaHostNodeParams*) CUDA_CPU_NOT_MODELLED(cudaGraphAddHostNode)
inline cudaError_t cudaGraphAddChildGraphNode(cudaGraphNode_t*, cudaGraph_t, const cudaGraphNode_t*, std::size_t,
                                              cudaGraph_t) CUDA_CPU_NOT_MODELLED(cudaGraphAddChildGraphNode)
inline cudaError_t cudaGraphAddEventRecordNode(cudaGraphNode_t*, cudaGraph_t, const cudaGraphNode_t*, std::size_t,
                                               cudaEvent_t) CUDA_CPU_NOT_MODELLED(cudaGraphAddEventRecordNode)
inline cudaError_t cudaGraphAddEventWaitNode(cudaGraphNode_t*, cudaGraph_t, const cudaGraphNode_t*, std::size_t,
                                             cudaEvent_t) CUDA_CPU_NOT_MODELLED(cudaGraphAddEventWaitNode)
inline cudaError_t cudaGraphAddMemAllocNode(cudaGraphNode_t*, cudaGraph_t, const cudaGraphNode_t*, std::size_t,
                                            cudaMemAllocNodeParams*) CUDA_CPU_NOT_MODELLED(cudaGraphAddMemAllocNode)
inline cudaError_t cudaGraphAddMemFreeNode(cudaGraphNode_t*, cudaGraph_t, const cudaGraphNode_t*, std::size_t, void*)
    CUDA_CPU_NOT_MODELLED(cudaGraphAddMemFreeNode)
inline cudaError_t cudaGraphKernelNodeGetParams(cudaGraphNode_t, cudaKernelNodeParams*)
    CUDA_CPU_NOT_MODELLED(cudaGraphKernelNodeGetParams)
inline cudaError_t cudaGraphKernelNodeSetParams(cudaGraphNode_t, const cudaKernelNodeParams*)
    CUDA_CPU_NOT_MODELLED(cudaGraphKernelNodeSetParams)
inline cudaError_t cudaGraphExecKernelNodeSetParams(cudaGraphExec_t, cudaGraphNode_t, const cudaKernelNodeParams*)
    CUDA_CPU_NOT_MODELLED(cudaGraphExecKernelNodeSetParams)
inline cudaError_t cudaGraphConditionalHandleCreate(cudaGraphConditionalHandle*, cudaGraph_t, unsigned int = 0,
                                                    unsigned int = 0) CUDA_CPU_NOT_MODELLED(cudaGraphConditionalHandleCreate)
inline cudaError_t cudaGraphDebugDotPrint(cudaGraph_t, const char*, unsigned int)
    CUDA_CPU_NOT_MODELLED(cudaGraphDebugDotPrint)
inline cudaError_t cudaDeviceGraphMemTrim(int) CUDA_CPU_NOT_MODELLED(cudaDeviceGraphMemTrim)
inline cudaError_t cudaDeviceGetGraphMemAttribute(int, cudaGraphMemAttributeType, void*)
    CUDA_CPU_NOT_MODELLED(cudaDeviceGetGraphMemAttribute)
inline cudaError_t cudaDeviceSetGraphMemAttribute(int, cudaGraphMemAttributeType, void*)
    CUDA_CPU_NOT_MODELLED(cudaDeviceSetGraphMemAttribute)
// In device code: a conditional node's value.
inline void cudaGraphSetConditional(cudaGraphConditionalHandle, unsigned int) CUDA_CPU_NOT_MODELLED(cudaGraphSetConditional)

// --- Arrays, textures and surfaces ----------------------------------------------------------
inline cudaError_t cudaMallocArray(cudaArray_t*, const cudaChannelFormatDesc*, std::size_t, std::size_t = 0,
                                   unsigned int = 0) CUDA_CPU_NOT_MODELLED(cudaMallocArray)
inline cudaError_t cudaMalloc3DArray(cudaArray_t*, const cudaChannelFormatDesc*, cudaExtent, unsigned int = 0)
    CUDA_CPU_NOT_MODELLED(cudaMalloc3DArray)
inline cudaError_t cudaMallocMipmappedArray(cudaMipmappedArray_t*, const cudaChannelFormatDesc*, cudaExtent,
                                            unsigned int, unsigned int = 0) CUDA_CPU_NOT_MODELLED(cudaMallocMipmappedArray)
inline cudaError_t cudaGetMipmappedArrayLevel(cudaArray_t*, cudaMipmappedArray_const_t, unsigned int)
    CUDA_CPU_NOT_MODELLED(cudaGetMipmappedArrayLevel)
inline cudaError_t cudaFreeArray(cudaArray_t) CUDA_CPU_NOT_MODELLED(cudaFreeArray)
inline cudaError_t cudaFreeMipmappedArray(cudaMipmappedArray_t) CUDA_CPU_NOT_MODELLED(cudaFreeMipmappedArray)
inline cudaError_t cudaMalloc3D(cudaPitchedPtr*, cudaExtent) CUDA_CPU_NOT_MODELLED(cudaMalloc3D)
inline cudaError_t cudaMemcpy3D(const cudaMemcpy3DParms*) CUDA_CPU_NOT_MODELLED(cudaMemcpy3D)
inline cudaError_t cudaMemcpy3DAsync(const cudaMemcpy3DParms*, cudaStream_t = nullptr)
    CUDA_CPU_NOT_MODELLED(cudaMemcpy3DAsync)
inline cudaError_t cudaMemcpyToArray(cudaArray_t, std::size_t, std::size_t, const void*, std::size_t, cudaMemcpyKind)
    CUDA_CPU_NOT_MODELLED(cudaMemcpyToArray)
inline cudaError_t cudaMemcpyFromArray(void*, cudaArray_const_t, std::size_t, std::size_t, std::size_t, cudaMemcpyKind)
    CUDA_CPU_NOT_MODELLED(cudaMemcpyFromArray)
inline cudaError_t cudaMemcpy2DToArray(cudaArray_t, std::size_t, std::size_t, const void*, std::size_t, std::size_t,
                                       std::size_t, cudaMemcpyKind) CUDA_CPU_NOT_MODELLED(cudaMemcpy2DToArray)
inline cudaError_t cudaMemcpy2DFromArray(void*, std::size_t, cudaArray_const_t, std::size_t, std::size_t, std::size_t,
                                         std::size_t, cudaMemcpyKind) CUDA_CPU_NOT_MODELLED(cudaMemcpy2DFromArray)
inline cudaError_t cudaArrayGetInfo(cudaChannelFormatDesc*, cudaExtent*, unsigned int*, cudaArray_t)
    CUDA_CPU_NOT_MODELLED(cudaArrayGetInfo)
inline cudaError_t cudaCreateTextureObject(cudaTextureObject_t*, const cudaResourceDesc*, const cudaTextureDesc*,
                                           const cudaResourceViewDesc*) CUDA_CPU_NOT_MODELLED(cudaCreateTextureObject)
inline cudaError_t cudaDestroyTextureObject(cudaTextureObject_t) CUDA_CPU_NOT_MODELLED(cudaDestroyTextureObject)
inline cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t*, const cudaResourceDesc*)
    CUDA_CPU_NOT_MODELLED(cudaCreateSurfaceObject)
inline cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t) CUDA_CPU_NOT_MODELLED(cudaDestroySurfaceObject)

// --- Interprocess handles and peer access ---------------------------------------------------
inline cudaError_t cudaIpcGetMemHandle(cudaIpcMemHandle_t*, void*) CUDA_CPU_NOT_MODELLED(cudaIpcGetMemHandle)
inline cudaError_t cudaIpcOpenMemHandle(void**, cudaIpcMemHandle_t, unsigned int) CUDA_CPU_NOT_MODELLED(cudaIpcOpenMemHandle)
inline cudaError_t cudaIpcCloseMemHandle(void*) CUDA_CPU_NOT_MODELLED(cudaIpcCloseMemHandle)
inline cudaError_t cudaIpcGetEventHandle(cudaIpcEventHandle_t*, cudaEvent_t) CUDA_CPU_NOT_MODELLED(cudaIpcGetEventHandle)
inline cudaError_t cudaIpcOpenEventHandle(cudaEvent_t*, cudaIpcEventHandle_t) CUDA_CPU_NOT_MODELLED(cudaIpcOpenEventHandle)
inline cudaError_t cudaDeviceEnablePeerAccess(int, unsigned int) CUDA_CPU_NOT_MODELLED(cudaDeviceEnablePeerAccess)
inline cudaError_t cudaDeviceDisablePeerAccess(int) CUDA_CPU_NOT_MODELLED(cudaDeviceDisablePeerAccess)

// --- In device code: texture fetches and surface reads and writes ----------------------------
// A program reaches none of these: making the object it passes has already stopped it.
template <typename T>
inline T tex1Dfetch(cudaTextureObject_t, int) CUDA_CPU_NOT_MODELLED(tex1Dfetch)
template <typename T>
inline T tex1D(cudaTextureObject_t, float) CUDA_CPU_NOT_MODELLED(tex1D)
template <typename T>
inline T tex2D(cudaTextureObject_t, float, float) CUDA_CPU_NOT_MODELLED(tex2D)
template <typename T>
inline T tex3D(cudaTextureObject_t, float, float, float) CUDA_CPU_NOT_MODELLED(tex3D)
template <typename T>
inline T tex1DLayered(cudaTextureObject_t, float, int) CUDA_CPU_NOT_MODELLED(tex1DLayered)
template <typename T>
inline T tex2DLayered(cudaTextureObject_t, float, float, int) CUDA_CPU_NOT_MODELLED(tex2DLayered)
template <typename T>
inline T texCubemap(cudaTextureObject_t, float, float, float) CUDA_CPU_NOT_MODELLED(texCubemap)
template <typename T>
inline T texCubemapLayered(cudaTextureObject_t, float, float, float, int) CUDA_CPU_NOT_MODELLED(texCubemapLayered)
template <typename T>
inline T tex2DLod(cudaTextureObject_t, float, float, float) CUDA_CPU_NOT_MODELLED(tex2DLod)
template <typename T>
inline T tex2Dgather(cudaTextureObject_t, float, float, int = 0) CUDA_CPU_NOT_MODELLED(tex2Dgather)
template <typename T>
inline void surf1Dwrite(T, cudaSurfaceObject_t, int, cudaSurfaceBoundaryMode = cudaBoundaryModeTrap)
    CUDA_CPU_NOT_MODELLED(surf1Dwrite)
template <typename T>
inline void surf2Dwrite(T, cudaSurfaceObject_t, int, int, cudaSurfaceBoundaryMode = cudaBoundaryModeTrap)
    CUDA_CPU_NOT_MODELLED(surf2Dwrite)
template <typename T>
inline void surf3Dwrite(T, cudaSurfaceObject_t, int, int, int, cudaSurfaceBoundaryMode = cudaBoundaryModeTrap)
    CUDA_CPU_NOT_MODELLED(surf3Dwrite)
template <typename T>
inline void surf2DLayeredwrite(T, cudaSurfaceObject_t, int, int, int, cudaSurfaceBoundaryMode = cudaBoundaryModeTrap)
    CUDA_CPU_NOT_MODELLED(surf2DLayeredwrite)
template <typename T>
inline T surf1Dread(cudaSurfaceObject_t, int, cudaSurfaceBoundaryMode = cudaBoundaryModeTrap)
    CUDA_CPU_NOT_MODELLED(surf1Dread)
template <typename T>
inline T surf2Dread(cudaSurfaceObject_t, int, int, cudaSurfaceBoundaryMode = cudaBoundaryModeTrap)
    CUDA_CPU_NOT_MODELLED(surf2Dread)
template <typename T>
inline void surf2Dread(T*, cudaSurfaceObject_t, int, int, cudaSurfaceBoundaryMode = cudaBoundaryModeTrap)
    CUDA_CPU_NOT_MODELLED(surf2Dread)
template <typename T>
inline T surf3Dread(cudaSurfaceObject_t, int, int, int, cudaSurfaceBoundaryMode = cudaBoundaryModeTrap)
    CUDA_CPU_NOT_MODELLED(surf3Dread)

#undef CUDA_CPU_NOT_MODELLED

#endif  // CUDA_CPU_UNSUPPORTED_API_H_
