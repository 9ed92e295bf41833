"""checker/nvcc's command line: nvcc's options, read into facts (Invocation) for nvcc_driver.py.

The options that Makefiles and CMake pass nvcc are accepted in nvcc's spellings (-I dir, -Idir,
--include-path=dir, ...). Those that choose GPU code (architectures, ptxas, fast math) mean
nothing on the CPU backend: they are kept in `noted`, never refused, so that a build written for
a GPU runs unchanged. What the CPU backend cannot do (PTX or cubin output, shared libraries) is
refused with the option's name. nvcc's own reference for each option is `nvcc --help`.
"""
import os
import re
from pathlib import Path


class UsageError(Exception):
    """An option checker/nvcc does not accept: the message names it."""


CU, CXX, C, OBJECT, LIBRARY = "cu", "c++", "c", "object", "library"
SOURCE_KINDS = {".cu": CU, ".cpp": CXX, ".cc": CXX, ".cxx": CXX, ".c++": CXX, ".C": CXX, ".c": C,
                ".o": OBJECT, ".obj": OBJECT, ".a": LIBRARY, ".so": LIBRARY}
LANGUAGES = {"cu": CU, "cuda": CU, "c++": CXX, "c": C}  # -x

# The CUDA libraries the CPU backend stands in for: linking them is linking the course's engine.
RUNTIME_LIBRARIES = {"cudart", "cudart_static", "cuda", "cudadevrt", "culibos", "nvToolsExt", "nvtx3interop"}
# CUDA libraries it does not model: a program that links one stops at the link with its name.
UNMODELLED_LIBRARIES = {"cublas", "cublasLt", "cufft", "cufftw", "curand", "cusparse", "cusolver", "nvrtc",
                        "nvjpeg", "npp", "nppc", "nppial", "nppicc", "nppif", "nppig", "nppim", "nppist",
                        "nppisu", "nppitc", "npps", "cudnn", "nvjitlink", "nvblas", "cutensor", "nccl"}


class Invocation:
    """One nvcc command line, as facts."""

    def __init__(self):
        self.phase = "link"          # link, compile (-c/-dc), preprocess (-E), deps (-M/-MM alone),
                                     # device-link (-dlink), library (-lib), version (--version)
        self.inputs = []             # (Path as given, kind)
        self.language = None         # -x: every source is read as this kind
        self.output = None           # -o
        self.includes = []           # -I folders, in order
        self.system_includes = []    # -isystem folders
        self.pre_includes = []       # -include files
        self.defines = []            # -D NAME[=VALUE]
        self.undefines = []          # -U NAME
        self.std = None              # -std=c++17
        self.optimize = None         # -O2: the host code's level
        self.host_options = []       # -Xcompiler words, and options nvcc forwards to the host compiler
        self.linker_options = []     # -Xlinker words
        self.libraries = []          # -l names, in order (the CUDA runtime's own are dropped)
        self.unmodelled_libraries = []
        self.library_paths = []      # -L folders
        self.deps = None             # "M" or "MM": dependencies instead of (or with, -MD) output
        self.deps_with_output = False  # -MD / -MMD
        self.deps_file = None        # -MF
        self.deps_targets = []       # -MT
        self.deps_phony = False      # -MP
        self.unknown_inputs = []     # files of a kind it does not read
        self.shared = False          # -shared: a shared library, or (with -dlink) an object for one
        self.verbose = False
        self.dry_run = False
        self.noted = []              # accepted, and without effect on the CPU backend


# Options that take a value: nvcc's long and short spellings -> the fact's name.
WITH_VALUE = {
    "-o": "output", "--output-file": "output",
    "-I": "include", "--include-path": "include",
    "-isystem": "system_include", "--system-include": "system_include",
    "-include": "pre_include", "--pre-include": "pre_include",
    "-D": "define", "--define-macro": "define",
    "-U": "undefine", "--undefine-macro": "undefine",
    "-x": "language", "--x": "language",
    "-std": "std", "--std": "std",
    "-O": "optimize", "--optimize": "optimize",
    "-Xcompiler": "host", "--compiler-options": "host",
    "-Xlinker": "linker", "--linker-options": "linker",
    "-l": "library", "--library": "library",
    "-L": "library_path", "--library-path": "library_path",
    "-MF": "deps_file", "--dependency-output": "deps_file",
    "-MT": "deps_target", "--dependency-target-name": "deps_target",
    # GPU code generation and tools: meaningless on the CPU backend, accepted as nvcc does.
    "-arch": "noted", "--gpu-architecture": "noted", "-code": "noted", "--gpu-code": "noted",
    "-gencode": "noted", "--generate-code": "noted", "-Xptxas": "noted", "--ptxas-options": "noted",
    "-Xnvlink": "noted", "--nvlink-options": "noted", "-Xcudafe": "noted", "-Xarchive": "noted",
    "-maxrregcount": "noted", "--maxrregcount": "noted", "-rdc": "noted", "--relocatable-device-code": "noted",
    "-ccbin": "noted", "--compiler-bindir": "noted", "-cudart": "noted", "--cudart": "noted",
    "-cudadevrt": "noted", "--cudadevrt": "noted", "-t": "noted", "--threads": "noted",
    "-default-stream": "noted", "--default-stream": "noted", "-ftz": "noted", "--ftz": "noted",
    "-prec-div": "noted", "--prec-div": "noted", "-prec-sqrt": "noted", "--prec-sqrt": "noted",
    "-fmad": "noted", "--fmad": "noted", "-split-compile": "noted", "--split-compile": "noted",
    "--Werror": "noted", "-diag-suppress": "noted", "--diag-suppress": "noted", "-diag_suppress": "noted",
    "--diag_suppress": "noted", "-keep-dir": "noted", "--keep-dir": "noted", "--machine": "noted",
    "-allow-unsupported-compiler": "noted", "-odir": "noted", "--output-directory": "noted",
}
# Options without a value.
FLAGS = {
    "-c": ("phase", "compile"), "--compile": ("phase", "compile"),
    "-dc": ("phase", "compile"), "--device-c": ("phase", "compile"),
    "-dw": ("phase", "compile"), "--device-w": ("phase", "compile"),
    "-E": ("phase", "preprocess"), "--preprocess": ("phase", "preprocess"),
    "-dlink": ("phase", "device-link"), "--device-link": ("phase", "device-link"),
    "-lib": ("phase", "library"), "--lib": ("phase", "library"),
    "-link": ("phase", "link"), "--link": ("phase", "link"),
    "--version": ("phase", "version"), "-V": ("phase", "version"),
    "--print-toolkit-root": ("phase", "print-toolkit-root"),  # checker/nvcc's own
    "-M": ("deps", "M"), "--generate-dependencies": ("deps", "M"),
    "-MM": ("deps", "MM"), "--generate-nonsystem-dependencies": ("deps", "MM"),
    "-MD": ("deps_with_output", "M"), "--generate-dependencies-with-compile": ("deps_with_output", "M"),
    "-MMD": ("deps_with_output", "MM"),
    "--generate-nonsystem-dependencies-with-compile": ("deps_with_output", "MM"),
    "-MP": ("deps_phony", True), "--generate-dependency-targets": ("deps_phony", True),
    "-v": ("verbose", True), "--verbose": ("verbose", True),
    "-shared": ("shared", True), "--shared": ("shared", True),  # refused only for a link (nvcc_driver)
    "-dryrun": ("dry_run", True), "--dryrun": ("dry_run", True),
}
NOTED_FLAGS = {
    "-g", "--debug", "-G", "--device-debug", "-lineinfo", "--generate-line-info", "-use_fast_math",
    "--use_fast_math", "--expt-relaxed-constexpr", "-expt-relaxed-constexpr", "--expt-extended-lambda",
    "-expt-extended-lambda", "--extended-lambda", "-extended-lambda", "-m64", "-w", "--disable-warnings",
    "-Wno-deprecated-gpu-targets", "-Wno-deprecated-declarations", "-res-usage", "--resource-usage",
    "-keep", "--keep", "-forward-unknown-to-host-compiler", "--forward-unknown-to-host-compiler",
    "-forward-unknown-to-host-linker", "--forward-unknown-to-host-linker", "-restrict", "--restrict",
    "-src-in-ptx", "--source-in-ptx", "-Wreorder", "-Wext-lambda-captures-this", "-Wdefault-stream-launch",
    "-Wmissing-launch-bounds", "--no-host-device-initializer-list",
    "--no-host-device-move-forward", "-nohdinitlist", "--display-error-number", "-err-no",
    "-pg", "--profile", "-static-global-template-stub=true",
}
# What the CPU backend cannot produce: refused with the option's name.
REFUSED = {
    "-ptx": "PTX output", "--ptx": "PTX output", "-cubin": "cubin output", "--cubin": "cubin output",
    "-fatbin": "fatbinary output", "--fatbin": "fatbinary output", "-optix-ir": "OptiX IR output",
    "-ltoir": "LTO IR output",
    "-run": "--run", "--run": "--run", "-cuda": "C++ output of the CUDA front end",
    "--cuda": "C++ output of the CUDA front end",
}
# Host-compiler options nvcc passes through without -Xcompiler.
HOST_PREFIXES = ("-W", "-f", "-pthread")


def _split_equals(word):
    if word.startswith("--") and "=" in word:
        name, value = word.split("=", 1)
        return name, value
    if word.startswith("-") and "=" in word and word.split("=", 1)[0] in WITH_VALUE:
        return tuple(word.split("=", 1))
    return word, None


def _attached(word):
    """-Idir, -DNAME, -lm, -O3 ...: the short options nvcc takes with the value attached."""
    for name in ("-isystem", "-I", "-D", "-U", "-l", "-L", "-O", "-x"):
        if word.startswith(name) and len(word) > len(name) and not word.startswith("-Xc"):
            return name, word[len(name):]
    return None


def parse(argv, cwd):
    inv = Invocation()
    words = list(argv)
    i = 0

    def value_of(name, attached):
        nonlocal i
        if attached is not None:
            return attached
        if i >= len(words):
            raise UsageError(f"{name} needs a value")
        i += 1
        return words[i - 1]

    while i < len(words):
        word = words[i]
        i += 1
        if word in ("-h", "--help"):
            inv.phase = "help"
            continue
        if word in FLAGS:
            fact, value = FLAGS[word]
            if fact == "phase":
                inv.phase = value
            elif fact == "deps_with_output":
                inv.deps_with_output = True
                inv.deps = value
            else:
                setattr(inv, fact, value)
            continue
        # -Werror=<kind> is nvcc's (all-warnings, cross-execution-space-call, ...); -Werror alone
        # and other -W options go to the host compiler, as nvcc forwards them.
        if word in NOTED_FLAGS or word.startswith("-Werror="):
            inv.noted.append(word)
            continue
        if word in REFUSED:
            raise UsageError(f"{word} asks for {REFUSED[word]}, which the CPU backend does not produce")
        name, value = _split_equals(word)
        if name not in WITH_VALUE and name.startswith("-") and value is None:
            attached = _attached(word)
            if attached:
                name, value = attached
            elif word.startswith("-std=") or word.startswith("--std="):
                name, value = "-std", word.split("=", 1)[1]
        if name in WITH_VALUE:
            fact = WITH_VALUE[name]
            v = value_of(name, value)
            if fact == "output":
                inv.output = v
            elif fact == "include":
                inv.includes.append(v)
            elif fact == "system_include":
                inv.system_includes.append(v)
            elif fact == "pre_include":
                inv.pre_includes.append(v)
            elif fact == "define":
                inv.defines.append(v)
            elif fact == "undefine":
                inv.undefines.append(v)
            elif fact == "language":
                if v not in LANGUAGES:
                    raise UsageError(f"-x {v}: the languages are cu, c++ and c")
                inv.language = LANGUAGES[v]
            elif fact == "std":
                inv.std = v
            elif fact == "optimize":
                inv.optimize = v
            elif fact == "host":
                inv.host_options.extend(w for w in v.split(",") if w)
            elif fact == "linker":
                inv.linker_options.extend(w for w in v.split(",") if w)
            elif fact == "library":
                if v in RUNTIME_LIBRARIES:
                    inv.noted.append(f"-l{v}")
                elif v in UNMODELLED_LIBRARIES:
                    inv.unmodelled_libraries.append(v)
                else:
                    inv.libraries.append(v)
            elif fact == "library_path":
                inv.library_paths.append(v)
            elif fact == "deps_file":
                inv.deps_file = v
            elif fact == "deps_target":
                inv.deps_targets.append(v)
            else:
                inv.noted.append(f"{name} {v}")
            continue
        if word.startswith(HOST_PREFIXES):
            inv.host_options.append(word)
            continue
        if word.startswith("-"):
            raise UsageError(f"unknown option '{word}'")
        path = Path(word)
        kind = SOURCE_KINDS.get(path.suffix) or SOURCE_KINDS.get(path.suffix.lower())
        if kind is None and re.search(r"\.so(\.\d+)*$", word):
            kind = LIBRARY
        if kind is None:
            inv.unknown_inputs.append(word)  # refused after -v's facts, as nvcc does
            continue
        inv.inputs.append((path if path.is_absolute() else Path(cwd) / path, kind))
    if inv.deps and not inv.deps_with_output and inv.phase in ("link", "compile"):
        inv.phase = "deps"  # -M and -MM alone: the dependencies instead of the output, as nvcc
    if inv.language:
        inv.inputs = [(p, inv.language if k in (CU, CXX, C) else k) for p, k in inv.inputs]
    return inv


def sources(inv):
    return [(p, k) for p, k in inv.inputs if k in (CU, CXX, C)]


def default_object(source):
    """nvcc -c a.cu writes a.o in the current folder."""
    return Path(os.path.basename(source)).with_suffix(".o")
