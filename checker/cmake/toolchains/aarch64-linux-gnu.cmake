# Cross-compiling for 64-bit Arm Linux (aarch64, what Docker Desktop runs on Apple Silicon)
# with clang and lld, against Debian's arm64 multiarch packages:
#   dpkg --add-architecture arm64 && apt-get update
#   apt-get install lld qemu-user libc6-dev:arm64 libstdc++-12-dev:arm64 \
#                   libgcc-12-dev:arm64 libboost-context-dev:arm64 libdw-dev:arm64 zlib1g-dev:arm64
# The kernels' PTX rewriting runs on this machine: PUZZLES_HOST_PTX_REWRITE names a ptx_rewrite
# built natively (the host-tools preset). Programs run under qemu-user (ctest, and the build's
# own checks), which finds the arm64 loader and libraries in / (multiarch).
# tests/platforms/arm64_emulated.sh does all of this.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(PUZZLES_TARGET_TRIPLE aarch64-linux-gnu)

set(CMAKE_CXX_COMPILER clang++)
set(CMAKE_CXX_COMPILER_TARGET ${PUZZLES_TARGET_TRIPLE})
set(CMAKE_LIBRARY_ARCHITECTURE ${PUZZLES_TARGET_TRIPLE})
set(CMAKE_EXE_LINKER_FLAGS_INIT -fuse-ld=lld)

# LLVM's archiver, nm and objcopy handle arm64 objects; this machine's binutils do not.
find_program(CMAKE_NM NAMES llvm-nm REQUIRED)
find_program(CMAKE_OBJCOPY NAMES llvm-objcopy REQUIRED)
find_program(CMAKE_AR NAMES llvm-ar REQUIRED)
find_program(CMAKE_RANLIB NAMES llvm-ranlib REQUIRED)

# pkg-config (libdw) reads the arm64 packages' files.
set(ENV{PKG_CONFIG_LIBDIR} "/usr/lib/${PUZZLES_TARGET_TRIPLE}/pkgconfig:/usr/share/pkgconfig")
set(ENV{PKG_CONFIG_PATH} "")

find_program(PUZZLES_QEMU NAMES qemu-${CMAKE_SYSTEM_PROCESSOR} REQUIRED)
set(CMAKE_CROSSCOMPILING_EMULATOR "${PUZZLES_QEMU};-L;/")
