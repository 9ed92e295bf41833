#!/usr/bin/env python3
"""Prints puzzle 13's kernel with a trace added (for bench/gpu/p13_schedule.cu): the first
consumer thread of each block records its SM, when it started and ended on the GPU's clock
(%globaltimer, ns) and on the SM's cycle counter, and when each of its tiles was stored;
thread 0 records when the block entered the kernel. Usage: make_p13_trace.py SOLUTION.cu [OUT.cu]
(without OUT.cu, to standard output)."""
import sys

TRACE = """
constexpr int TRACE_TILES = 32, TRACE_FIRST_TILE = 8, TRACE_WORDS = TRACE_FIRST_TILE + TRACE_TILES;
// [0] SM, [1] start, [2] start cycle, [3] end, [4] end cycle, [5] tiles, [6] entry, [8 + i] tile i stored.
__device__ unsigned long long* trace_buffer;
__device__ __forceinline__ unsigned long long global_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}
__device__ __forceinline__ unsigned sm_id() {
  unsigned s;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
  return s;
}
"""

# (line the edit follows, text added after it); each must occur exactly once.
EDITS = [
    ("// --- The kernel ---", TRACE),
    ("  const int warpgroup = threadIdx.x / 128;",
     "  unsigned long long* trace_rec = trace_buffer + blockIdx.x * TRACE_WORDS;\n"
     "  if (threadIdx.x == 0) trace_rec[6] = global_ns();\n"),
    ("    registers_up<232>();",
     "    const bool tracer = threadIdx.x == 128;\n"
     "    int traced_tiles = 0;\n"
     "    if (tracer) { trace_rec[0] = sm_id(); trace_rec[1] = global_ns(); trace_rec[2] = clock64(); }\n"),
    ("      store_rows_shared(d, my_staging, &c_map, tile_row * BM + consumer * 64 + 16 * warp, tile_col * BN);",
     "      if (tracer && traced_tiles < TRACE_TILES) trace_rec[TRACE_FIRST_TILE + traced_tiles] = global_ns();\n"
     "      ++traced_tiles;\n"),
    ("    if (threadIdx.x % 32 == 0) bulk_wait_all();",
     "    if (tracer) { trace_rec[3] = global_ns(); trace_rec[4] = clock64(); trace_rec[5] = traced_tiles; }\n"),
]

text = open(sys.argv[1]).read()
for anchor, added in EDITS:
    count = text.count(anchor)
    if count != 1:
        sys.exit(f"make_p13_trace.py: '{anchor.strip()}' occurs {count} times in {sys.argv[1]}, not once")
    at = text.index(anchor)
    end = text.index("\n", at) + 1
    text = text[:end] + added + text[end:]
if len(sys.argv) > 2:
    with open(sys.argv[2], "w") as out:
        out.write(text)
else:
    sys.stdout.write(text)
