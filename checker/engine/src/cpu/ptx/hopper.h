// Hopper's asynchronous units on the CPU backend: mbarriers, tensor copies (TMA), warpgroup
// MMAs (wgmma) and the instructions around them. Everything here runs on a CUDA thread's
// fiber, through the interpreter (execute.cpp).
#pragma once

#include "lane.h"

namespace cuda_cpu {
struct EmulatedTensorMap;
}

namespace engine::cpu::ptx_run {

void run_mbarrier(Lane& lane, const ptx::Instruction& in);     // mbarrier.cpp
void run_tensor_copy(Lane& lane, const ptx::Instruction& in);  // tensor_copy.cpp
void run_warpgroup(Lane& lane, const ptx::Instruction& in);    // wgmma.cpp: wgmma.*, setmaxnreg
void run_cluster(Lane& lane, const ptx::Instruction& in);      // cluster_memory.cpp: barrier.cluster, mapa

// The mbarrier at a shared host address of this worker's CTA, or of `owner`'s (made on first
// use, uninitialized).
MBarrier& mbarrier_at(std::uintptr_t host);
MBarrier& mbarrier_at(Worker& owner, std::uintptr_t host);
// The mbarrier at `place`, checked to be initialized, and, in another CTA of the cluster, a
// cluster barrier after that; refuses it otherwise. `use`: "arrives on", for the finding.
MBarrier& usable_mbarrier(Lane& lane, const ClusterPlace& place, const char* use);
// Transaction bytes delivered to an mbarrier of `owner`'s CTA (a tensor copy landed); completes
// its phase when nothing more is expected.
void complete_transaction(Worker& owner, MBarrier& b, std::uint64_t bytes);
// Lands every tensor copy still on its way to `b` (of this worker's CTA).
void land_copies(MBarrier& b);
// Lands every copy in flight whose mbarrier some thread waits on (BlockSync::land_awaited_copies).
void land_awaited_copies();

// --profile: what the asynchronous units did (async_profile.h); nothing without the option
// (async_profile_hooks.cpp). A tensor load's box as it goes to one CTA, completing `barrier`
// at `place`; a tensor store's box; a warpgroup instruction, told once by the thread that
// completes it for the warpgroup.
void profile_tensor_load(const Lane& lane, const ClusterPlace& place, const MBarrier& barrier, std::uint64_t bytes,
                         bool multicast);
void profile_tensor_store(const Lane& lane, std::uint64_t bytes);
void profile_warpgroup(const Lane& first, const ptx::Instruction& in);

// Every tensor copy's box as issued (a multicast load once), on every launch: the notes on
// boxes that hung over the tensor's edges (tensor_edges.h, tensor_edge_hooks.cpp).
void note_tensor_box(const Lane& lane, const cuda_cpu::EmulatedTensorMap& map, const std::int64_t* coordinate,
                     bool store);

}  // namespace engine::cpu::ptx_run
