"""checker/nvcc: builds CUDA programs for the CPU backend with nvcc's command line (docs/programs.md).

A Makefile's `$(NVCC) -c kernels.cu -o kernels.o` and `$(NVCC) -o app kernels.o main.cpp` do
here what they do with nvcc, against the CPU backend:
  .cu       prepared as checker/run prepares a program's file (the CUDA names, its inline PTX
            and <<<...>>> launches rewritten by ptx_rewrite) and compiled with the checks
  .cpp .c   host code, compiled with CUDA's runtime headers (the engine's) in reach
  link      with what the course build's program_link target links (the engine), as CMake's
            file API says it
The command lines come from the course build's toolchain.json (checker/cmake/ProgramExport.cmake),
so that a .cu file is compiled as a kernel file of the course is. The executable prints what
each launch found as it runs, and a summary at its exit (checker/lib/src/program_report.cpp).
"""
import fcntl
import hashlib
import json
import os
import shlex
import subprocess
import sys
import time
from pathlib import Path

from course import device_pass, nvcc_args
from course.depfile import names as depfile_names
from course.nvcc_args import CU, C, OBJECT, LIBRARY

# nvcc's CUDA 12 language default; the engine's headers need C++17 at least.
DEFAULT_STD = "c++17"
NEWER_STD = ("c++20", "c++2a", "c++23", "c++2b", "gnu++20", "gnu++2a", "gnu++23", "gnu++2b")
# nvcc's own --version line, which build systems read (CMake: "V12.8.0"), under ours.
VERSION = "checker/nvcc: the CUDA puzzles course's CPU backend, with nvcc's command line\n" \
          "Cuda compilation tools, release 12.8, V12.8.0 (the CUDA runtime the engine's headers declare)"
# nvcc's default architecture when none is given; -v says it, as nvcc's device steps do.
DEFAULT_ARCHITECTURE = "52"


class Failed(Exception):
    """A step failed: its status; what it printed has been shown."""

    def __init__(self, status):
        super().__init__(status)
        self.status = status


class Driver:
    def __init__(self, inv, toolchain, tree, cwd, err=sys.stderr):
        self.inv = inv
        self.tc = toolchain
        self.tree = tree        # the course build (build/<preset>)
        self.cwd = Path(cwd)
        self.err = err

    # --- commands ---------------------------------------------------------------------------
    def run(self, command, **kw):
        if self.inv.verbose or self.inv.dry_run:
            print("#$ " + shlex.join(str(w) for w in command), file=self.err, flush=True)
        if self.inv.dry_run:
            return
        status = subprocess.run([str(w) for w in command], cwd=self.cwd, stdin=subprocess.DEVNULL, **kw).returncode
        if status != 0:
            raise Failed(status)

    def std(self, kind):
        given = self.inv.std
        if kind == C:
            return [f"-std={given}"] if given and not given.startswith(("c++", "gnu++")) else []
        return [f"-std={given if given in NEWER_STD else DEFAULT_STD}"]

    def user_preprocessor(self):
        words = []
        for d in self.inv.defines:
            words.append(f"-D{d}")
        for u in self.inv.undefines:
            words.append(f"-U{u}")
        for d in self.inv.includes:
            words.append(f"-I{self.cwd / d}")
        for d in self.inv.system_includes:
            words += ["-isystem", str(self.cwd / d)]
        for f in self.inv.pre_includes:
            words += ["-include", str(self.cwd / f)]
        return words

    def work_folder(self, output):
        """Where a .cu file's intermediate files go: the course build, not the program's folder."""
        key = hashlib.sha1(str(output.resolve()).encode()).hexdigest()[:12]
        folder = self.tree / "nvcc" / f"{output.stem}-{key}"
        folder.mkdir(parents=True, exist_ok=True)
        return folder

    # --- compile ----------------------------------------------------------------------------
    def write_wrapper(self, wrapper, source):
        """The generated file that includes a .cu file as checker/run's programs are (program_cpu.cpp.in);
        rewritten only when it changes, so that a build tool sees it unchanged."""
        text = Path(self.tc["wrapper"]).read_text(encoding="utf-8").replace("@SOURCE@", str(source))
        if not wrapper.exists() or wrapper.read_text(encoding="utf-8") != text:
            wrapper.write_text(text, encoding="utf-8")

    def compile_cu(self, source, output, deps):
        """As nvcc does: the host pass and, where the program's own files test __CUDA_ARCH__, the
        device pass, joined into one object (device_pass.py)."""
        work = self.work_folder(output)
        wrapper = work / "program.cpp"
        self.write_wrapper(wrapper, source)
        depfile = work / "program.d"
        host_pass = [wrapper, work / "program", output, ["-MD", "-MF", depfile, "-MT", output]]
        # The architecture the build names, for what CUDA declares for some architectures only
        # (the warp functions without _sync: cuda_cpu/warp_functions.h).
        arch = device_pass.architecture(self.inv.noted, DEFAULT_ARCHITECTURE)
        target = [f"-DCUDA_CPU_TARGET_ARCH={arch}"]
        # A host pass that a device pass will join keeps each function in a section of its own,
        # where a static kernel's launches can be pointed at the device pass's (device_pass_merge.h).
        # Foreseen from the files the source includes by name; the compiler's list may add some.
        foreseen = bool(device_pass.tests_in(device_pass.quoted_includes(source, self.include_dirs())))
        self.compile_pass(*host_pass, target, sections=foreseen, loops=not foreseen)
        if deps and not self.inv.dry_run:
            self.write_deps(depfile, {str(wrapper): str(source)}, deps)
        own = [source] if self.inv.dry_run else self.own_files(source, depfile, wrapper)
        if device_pass.tests_in(own):
            if not foreseen:
                self.compile_pass(*host_pass, target, sections=True, loops=False)
            self.add_device_pass(wrapper, work, output, arch)
        if not self.inv.dry_run and not self.keeps_intermediates():
            self.remove_intermediates(work)

    def include_dirs(self):
        return [self.cwd / d for d in (*self.inv.includes, *self.inv.system_includes)]

    def compile_pass(self, wrapper, stem, output, preprocess_words, defines=(), sections=False, loops=True):
        """One of nvcc's passes over the file: prepared as checker/run prepares a program's file
        (ptx_rewrite), then compiled with the checks; with `loops`, kernels that qualify run as
        loops between barriers. Passes that are joined do without: the host pass's loop invokers
        would run its own copies of the kernels, not the device pass's."""
        preprocessed, rewritten = stem.with_suffix(".ii"), Path(f"{stem}_ptx.cpp")
        self.run([*self.tc["prepare_cu"], *self.std(CU), *self.user_preprocessor(), *defines, *preprocess_words,
                  "-o", preprocessed, wrapper])
        self.run([*self.tc["rewrite_cu"], preprocessed, rewritten])
        # The program's own host-compiler options first: the course's flags (the checks) win.
        compile_cu = list(self.tc["compile_cu"])
        self.run([compile_cu[0], *self.inv.host_options, *compile_cu[1:], *self.std(CU), *self.user_preprocessor(),
                  *defines, *(["-ffunction-sections"] if sections else []),
                  *(self.tc.get("block_loops", []) if loops else []), "-o", output, rewritten])

    def add_device_pass(self, wrapper, work, output, arch):
        """Compiles the device pass for `arch` (900 for sm_90) and joins it to the host pass's
        object at `output`."""
        host, device, facts = work / "host.o", work / "device.o", work / "device_pass.facts"
        if not self.inv.dry_run:
            os.replace(output, host)
        self.compile_pass(wrapper, work / "device", device, [], [f"-D__CUDA_ARCH__={arch}"], loops=False)
        # The work folder's name tells this file's static kernels from another file's.
        self.run([*self.tc["rewrite_cu"], "--device-pass", host, device, work.name, facts])
        compiler = self.tc["compile_cu"]
        # The compiler's target options, that its linker joins objects of the right machine.
        target = [w for w in compiler[1:] if w.startswith(("--target=", "--sysroot=", "-fuse-ld=", "--gcc-toolchain="))]
        self.run([compiler[0], *target, "-r", "-nostdlib", "-o", output, device, host])
        if not self.inv.dry_run:
            for name in device_pass.internal_kernels(facts.read_text(encoding="utf-8")):
                print(device_pass.internal_kernel_note(name), file=self.err, flush=True)

    def is_own(self, name):
        """A file of the program's, not the system's or the course's (as -MM leaves out)."""
        return not name.startswith(("/usr/", str(self.tc["course"])))

    def own_files(self, source, depfile, wrapper):
        """The program's own files (not the system's or the course's) that the compile read."""
        return [str(source)] + [n for n in depfile_names(depfile) if n != str(wrapper) and self.is_own(n)]

    def keeps_intermediates(self):
        """-keep, as with nvcc: the intermediate files stay (here: in the work folder, -v names it)."""
        return any(word in ("-keep", "--keep") for word in self.inv.noted)

    @staticmethod
    def remove_intermediates(work):
        """The preprocessed and rewritten sources and the passes' objects, a few MB per object, which
        nvcc too removes once the object is made: the work folder keeps its small wrapper and
        dependency file. A file another compile of the same object still writes is no harm to miss."""
        for pattern in ("*.ii", "*_ptx.cpp", "host.o", "device.o"):
            for path in work.glob(pattern):
                try:
                    path.unlink()
                except OSError:
                    pass

    def compile_host(self, source, kind, output, deps):
        compile_host = list(self.tc["compile_host"])
        # -O2 unless the build says: host code that checks a result on the CPU can be long.
        optimize = [f"-O{self.inv.optimize if self.inv.optimize is not None else 2}"]
        depfile = None
        dep_words = []
        if deps:
            depfile = self.work_folder(output) / "host.d"
            dep_words = ["-MD", "-MF", depfile, "-MT", output]
        language = ["-x", "c"] if kind == C else ["-x", "c++"]
        self.run([compile_host[0], *compile_host[1:], *optimize, *self.inv.host_options, *self.std(kind),
                  *self.user_preprocessor(), *dep_words, "-o", output, *language, source])
        if deps and not self.inv.dry_run:
            self.write_deps(depfile, {}, deps)

    def write_deps(self, depfile, replace, deps):
        """The dependency file the program's build asked for (-MD, -MF, -MT, -MP), from the
        compiler's: the generated wrapper is named as the program's file it includes."""
        files = [replace.get(n, n) for n in depfile_names(depfile)]
        files = list(dict.fromkeys(files))
        if deps["mode"] == "MM":
            files = [f for f in files if self.is_own(f)]
        targets = " ".join(deps["targets"] or [deps["target"]])
        lines = [targets + ": " + " \\\n  ".join(files)]
        if deps["phony"]:
            lines += [f"\n{f}:" for f in files[1:]]
        content = "\n".join(lines) + "\n"
        if deps["file"] == "-":
            sys.stdout.write(content)
        else:
            Path(deps["file"]).write_text(content, encoding="utf-8")

    def dependencies_only(self, source, kind, default_output):
        """-M / -MM without -c: the dependencies, from preprocessing alone."""
        work = self.work_folder(self.cwd / default_output)
        deps = self.deps_request(source, default_output)
        depfile = work / "deps-only.d"
        replace = {}
        if kind == CU:
            wrapper = work / "deps-only.cpp"
            self.write_wrapper(wrapper, source)
            replace[str(wrapper)] = str(source)
            command = [*self.tc["prepare_cu"], *self.std(CU), *self.user_preprocessor(), wrapper]
        else:
            compile_host = [w for w in self.tc["compile_host"] if w != "-c"]
            command = [*compile_host, "-E", *self.inv.host_options, *self.std(kind), *self.user_preprocessor(),
                       "-x", "c" if kind == C else "c++", source]
        self.run([*command, "-MD", "-MF", depfile, "-MT", default_output, "-o", os.devnull])
        if not self.inv.dry_run:
            self.write_deps(depfile, replace, deps)

    def deps_request(self, source, output):
        inv = self.inv
        if inv.deps is None:
            return None
        if inv.deps_file:
            file = self.cwd / inv.deps_file
        elif inv.deps_with_output:
            file = (self.cwd / output).with_suffix(".d")
        elif inv.output and inv.phase == "deps":
            file = self.cwd / inv.output
        else:
            file = "-"
        # The rule's target as the build wrote the object's name (make compares names).
        target = inv.output if inv.output and inv.phase == "compile" else str(nvcc_args.default_object(source))
        return {"mode": inv.deps, "file": file, "targets": inv.deps_targets, "target": target,
                "phony": inv.deps_phony}

    def compile(self, source, kind, output):
        deps = self.deps_request(source, output)
        output.parent.mkdir(parents=True, exist_ok=True)
        if kind == CU:
            self.compile_cu(source, output, deps)
        else:
            self.compile_host(source, kind, output, deps)

    # --- link -------------------------------------------------------------------------------
    def link_line(self):
        """What a program is linked with: the course build's program_link target, as CMake's file
        API says it (ProgramExport.cmake). Returns (flags, libraries), each a list of words,
        libraries with absolute paths. A build configured once has no reply yet (CMake reads the
        query, written by that configure, from the next one on), and a configure under way
        rewrites it: then the build is configured again, one driver at a time, and read again."""
        api = self.tree / ".cmake" / "api" / "v1"
        try:
            return self.read_link_reply(api / "reply")
        except (OSError, ValueError, KeyError, IndexError, StopIteration):
            pass
        api.mkdir(parents=True, exist_ok=True)
        with open(api / ".checker-nvcc.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            for attempt in range(3):
                try:
                    return self.read_link_reply(api / "reply")
                except (OSError, ValueError, KeyError, IndexError, StopIteration):
                    if attempt:
                        time.sleep(1)  # another configure may be writing it
                log = self.tree / "program-export" / "reconfigure.log"
                with open(log, "w") as out:
                    status = subprocess.run(["cmake", str(self.tree)], stdout=out, stderr=subprocess.STDOUT,
                                            stdin=subprocess.DEVNULL).returncode
                if status != 0:
                    print(log.read_text(errors="replace")[-3000:], file=self.err)
                    print(f"checker/nvcc: configuring {self.tree} again failed (log: {log})", file=self.err)
                    raise Failed(2)
        print(f"checker/nvcc: {self.tree} says nothing of how to link a program (CMake's file API, "
              ".cmake/api/v1/reply): configure it again (cmake --fresh)", file=self.err)
        raise Failed(2)

    def read_link_reply(self, reply):
        index = json.loads(max(reply.glob("index-*.json")).read_text(encoding="utf-8"))
        responses = index["reply"]["client-puzzles-nvcc"]["query.json"]["responses"]
        codemodel = json.loads((reply / responses[0]["jsonFile"]).read_text(encoding="utf-8"))
        target = next(t for t in codemodel["configurations"][0]["targets"] if t["name"] == self.tc["link_target"])
        link = json.loads((reply / target["jsonFile"]).read_text(encoding="utf-8"))["link"]
        flags, libraries = [], []
        for fragment in link["commandFragments"]:
            words = shlex.split(fragment["fragment"])
            if fragment["role"] == "libraries":
                libraries += [w if w.startswith("-") or os.path.isabs(w) else str(self.tree / w) for w in words]
            elif fragment["role"] == "flags":
                flags += words
        return flags, libraries

    def write_runtime_stand_ins(self, libraries):
        """cuda-toolkit/lib64/libcudart.so and the other stand-ins as linker scripts of the
        engine's link: a CMake project that links CUDA::cudart with its C++ compiler (a target
        of .cu and .cpp files) links the CPU backend that way."""
        words = [w for w in libraries if not w.startswith("-") or w.startswith("-l")]
        script = ("/* Written by checker/nvcc: CUDA's runtime on the course's CPU backend is its engine. */\n"
                  f"INPUT({' '.join(words)})\n")
        lib64 = self.toolkit() / "lib64"
        for name in ("libcudart.so", "libcudart_static.a", "libcuda.so", "stubs/libcuda.so"):
            path = lib64 / name
            if path.parent.is_dir() and (not path.exists() or path.read_text(errors="replace") != script):
                temporary = path.with_name(f".{path.name}.{os.getpid()}")
                temporary.write_text(script, encoding="utf-8")
                os.replace(temporary, path)

    def link(self, objects, output):
        flags, libraries = self.link_line()
        target = self.cwd / output
        target.parent.mkdir(parents=True, exist_ok=True)
        words = [self.tc["compile_host"][0], *flags, *self.inv.host_options, *[str(o) for o in objects]]
        words += [f"-L{self.cwd / d}" for d in self.inv.library_paths]
        words += [f"-l{name}" for name in self.inv.libraries]
        words += [f"-Wl,{w}" for w in self.inv.linker_options]
        self.run([*words, *libraries, "-o", target])

    def archive(self, objects, output):
        target = self.cwd / output
        target.parent.mkdir(parents=True, exist_ok=True)
        target.unlink(missing_ok=True)
        self.run(["ar", "rcs", target, *objects])

    # --- what -v says ------------------------------------------------------------------------
    def toolkit(self):
        """The course build's folder laid out as a CUDA toolkit (ProgramExport.cmake): bin/nvcc is
        this driver, include/ the engine's CUDA headers, lib64/ stand-ins for CUDA's libraries."""
        return self.tree / "program-export" / "cuda-toolkit"

    def libraries_words(self):
        return f'"-L{self.toolkit() / "lib64"}"'

    def say_toolkit(self):
        """nvcc -v's first lines, the facts build systems read from them (CMake finds the toolkit's
        root, its include folders, its libraries and the host link line in them)."""
        root = self.toolkit()
        for line in (f"TOP={root}", f"NVVMIR_LIBRARY_DIR={root / 'nvvm' / 'libdevice'}",
                     f"PATH={root / 'bin'}:{os.environ.get('PATH', '')}", f'INCLUDES="-I{root / "include"}"',
                     f"LIBRARIES=  {self.libraries_words()}",
                     f"CPU_BACKEND=no device code is generated (the default, -arch compute_{DEFAULT_ARCHITECTURE}, "
                     "is noted)"):
            print("#$ " + line, file=self.err, flush=True)

    def say_link(self, objects, output):
        """The host link as nvcc -v prints it: this driver links, with the toolkit's libraries."""
        # The runtime libraries as nvcc names them (lib64's stand-ins link the engine): CMake reads
        # from them that programs link CUDA's static runtime, and adds it to C++ links too.
        launcher = self.toolkit() / "bin" / "nvcc"
        print(f"#$ {launcher} {' '.join(str(o) for o in objects)} {self.libraries_words()} "
              f"-lcudadevrt -lcudart_static -o {output}", file=self.err, flush=True)

    # --- the command ------------------------------------------------------------------------
    def execute(self):
        inv = self.inv
        # Before anything else: a Makefile may compile with this driver and link with g++ -lcudart.
        self.write_runtime_stand_ins(self.link_line()[1])
        sources = nvcc_args.sources(inv)
        if inv.unmodelled_libraries:
            names = ", ".join(f"-l{n}" for n in inv.unmodelled_libraries)
            print(f"checker/nvcc: not supported: {names} (the CPU backend models the CUDA runtime, "
                  "not that library)", file=self.err)
            return 125
        if inv.shared and inv.phase == "link":
            print("checker/nvcc: -shared asks for a shared library, which the CPU backend does not produce "
                  "(link the program's objects into an executable)", file=self.err)
            return 2
        if inv.phase == "preprocess":
            for source, kind in sources:
                self.run([*self.tc["prepare_cu"], *self.std(kind), *self.user_preprocessor(),
                          *(["-o", self.cwd / inv.output] if inv.output else []), source])
            return 0
        if inv.phase == "deps":
            for source, kind in sources:
                self.dependencies_only(source, kind, nvcc_args.default_object(source))
            return 0
        if inv.phase == "device-link":
            # Device code is linked with the host code on the CPU backend: nvcc -dlink's object
            # is empty here, and the final link takes the program's objects as they are.
            out = self.cwd / (inv.output or "a_dlink.o")
            self.run([self.tc["compile_host"][0], "-x", "c++", "-c", "-o", out, "/dev/null"])
            return 0
        if inv.phase == "compile":
            if inv.output and len(sources) > 1:
                print("checker/nvcc: -o with -c names one object, and there are several files "
                      "(nvcc refuses this too)", file=self.err)
                return 2
            for source, kind in sources:
                output = self.cwd / (inv.output or nvcc_args.default_object(source))
                self.compile(source, kind, output)
            return 0
        # link or library: the sources are compiled first, into the build's work folders.
        objects = []
        toolkit = str(self.toolkit()) + os.sep
        for path, kind in inv.inputs:
            if kind == LIBRARY and str(path.resolve()).startswith(toolkit):
                continue  # a stand-in for a CUDA library (CUDA::cudart): the engine is linked
            if kind in (OBJECT, LIBRARY):
                objects.append(path)
                continue
            output = self.work_folder(self.cwd / (inv.output or "a.out")) / (path.stem + f"-{kind.replace('+', 'x')}.o")
            self.compile(path, kind, output)
            objects.append(output)
        if inv.phase == "library":
            self.archive(objects, inv.output or "a.a")
        else:
            if inv.verbose:
                self.say_link(objects, inv.output or "a.out")
            self.link(objects, inv.output or "a.out")
        return 0


def _rsp_quote(word):
    return '"' + word.replace("\\", "\\\\").replace('"', '\\"') + '"'


def read_toolchain(tree):
    with open(tree / "program-export" / "toolchain.json", encoding="utf-8") as f:
        return json.load(f)
