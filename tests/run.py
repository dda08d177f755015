#!/usr/bin/env python3
"""run.py: Tacet's test runner (`make test`). Runs every host unit test binary, the static check
that neither kernel has recursion (tools/callcycles.py over the call graph gcc wrote: `make
callgraph`), the protocol generator's checks (proto/: tests/host/proto/check_genproto.py), the
check that the shipped kernel holds no in-kernel test (its symbols) and only the faults kernel
the fault injector (build/injector-only-in-faults-kernel), the docs/
check that README.md's tree names every folder of servers/ and kernel/, the style/ check that no
code file names an issue number, tools/faults-log (the fault campaign's runner reads its log's
lines), the dtb/ checks of the Makefile's device trees, the trace/ checks
(the trace converter on a recorded ring, and `make trace`'s file: tests/trace/check.py), every
QEMU case in tests/qemu/cases.py and the benchmarks' checks (bench/: the same figures twice,
within their budgets, the stress benchmarks' likewise with their same-hart samples under the
same-hart bound, and docs/benchmarks.md's figures table holding them; the wall-clock stress
benchmark's shape: bench/wall-shape), prints one line per test
and ends with `N passed, N failed`; exits non-zero when anything failed. Logs go to
build/test-logs/.

  python3 tests/run.py [-k SUBSTRING] [--no-host] [--no-qemu]
"""
import argparse
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests", "qemu"))
import cases as qemu_cases  # noqa: E402
from machine import MACHINES, dtb_for_machine, icount_args, kernel_image  # noqa: E402

BUILD = os.path.join(ROOT, "build")
LOGS = os.path.join(BUILD, "test-logs")
OPENSBI = "/usr/lib/riscv64-linux-gnu/opensbi/generic/fw_dynamic.bin"
NM = "riscv64-unknown-elf-nm"
# The Makefile's QEMU_GLOBALS: virtio-mmio transports offer the modern interface (Version 2).
QEMU_GLOBALS = ["-global", "virtio-mmio.force-legacy=false"]


class Results:
    def __init__(self):
        self.passed = 0
        self.failed = []

    def report(self, name, ok, detail="", seconds=None):
        took = f" ({seconds:.2f}s)" if seconds is not None else ""
        if ok:
            self.passed += 1
            print(f"PASS {name}{took}", flush=True)
        else:
            self.failed.append(name)
            print(f"FAIL {name}{took}: {detail}", flush=True)


def run_host_tests(results, pattern):
    """Each cmocka case counts once: parse its [ OK ] / [ FAILED ] lines."""
    bindir = os.path.join(BUILD, "host")
    if not os.path.isdir(bindir):
        results.report("host tests", False, "build/host missing: run make host-tests")
        return
    for binary in sorted(os.listdir(bindir)):
        if not binary.startswith("test_"):
            continue
        path = os.path.join(bindir, binary)
        if not os.access(path, os.X_OK) or os.path.isdir(path):
            continue
        suite = binary[len("test_"):]
        if pattern and pattern not in f"host/{suite}":
            continue
        start = time.monotonic()
        proc = subprocess.run([path], cwd=ROOT, capture_output=True, text=True, timeout=300)
        took = time.monotonic() - start
        out = proc.stdout + proc.stderr
        with open(os.path.join(LOGS, f"host-{suite}.log"), "w") as f:
            f.write(out)
        oks = re.findall(r"^\[\s+OK\s+\] (\S+)", out, re.M)
        fails = re.findall(r"^\[\s+(?:FAILED|ERROR)\s+\] (\S+)$", out, re.M)
        # cmocka names a failed case twice (as it fails, and in its closing summary)
        fails = list(dict.fromkeys(f for f in fails if not re.match(r"^\d+$", f)))
        for name in oks:
            results.report(f"host/{suite}/{name}", True)
        for name in fails:
            results.report(f"host/{suite}/{name}", False, f"see build/test-logs/host-{suite}.log")
        if proc.returncode != 0 and not fails:
            tail = "\n".join(out.strip().splitlines()[-15:])
            results.report(f"host/{suite}", False,
                           f"exit status {proc.returncode} (sanitizer?):\n{tail}", took)
        if not oks and not fails and proc.returncode == 0:
            results.report(f"host/{suite}", False, "ran no test cases")


def run_static_checks(results, pattern):
    """Each kernel's call graph (the shipped, the test and the faults kernel's) must have no cycle
    but the bounded ones tools/callcycles.py allows: a recursion whose depth a user controls
    overflows the 16 KiB kernel stack."""
    name = "static/kernel-no-recursion"
    if pattern and pattern not in name:
        return
    proc = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "callcycles.py"), BUILD,
                           os.path.join(BUILD, "test"), os.path.join(BUILD, "faults")], cwd=ROOT,
                          capture_output=True, text=True)
    out = (proc.stdout + proc.stderr).strip()
    results.report(name, proc.returncode == 0,
                   "\n".join("    | " + line for line in out.splitlines()[-30:]))


def run_proto_checks(results, pattern):
    """tools/genproto.py: lib/proto's descriptions parse, name labels their headers define, and
    are what the build compiled; malformed descriptions are refused
    (tests/host/proto/check_genproto.py). The generated code itself is tested by the host test
    test_proto."""
    name = "proto/genproto"
    if pattern and pattern not in name:
        return
    proc = subprocess.run([sys.executable, os.path.join(ROOT, "tests", "host", "proto",
                                                        "check_genproto.py"), BUILD],
                          cwd=ROOT, capture_output=True, text=True)
    out = (proc.stdout + proc.stderr).strip()
    results.report(name, proc.returncode == 0,
                   "\n".join("    | " + line for line in out.splitlines()[-30:]))


def subfolders(path):
    """The folders directly in path (relative to the repository), sorted."""
    full = os.path.join(ROOT, path)
    return sorted(f"{path}/{e.name}" for e in os.scandir(full)
                  if e.is_dir() and not e.name.startswith((".", "__")))


def run_docs_checks(results, pattern):
    """README.md's "The tree" section must name every folder of servers/ and of kernel/ (and
    each port under kernel/arch/), as `servers/NAME/`, and name no such folder that is not
    there: adding or removing a server or a kernel folder without its line fails here."""
    name = "docs/readme-tree"
    if pattern and pattern not in name:
        return
    with open(os.path.join(ROOT, "README.md")) as f:
        m = re.search(r"^## The tree\n(.*?)(?=^## |\Z)", f.read(), re.M | re.S)
    if not m:
        results.report(name, False, 'README.md has no "## The tree" section')
        return
    named = set(re.findall(r"`((?:kernel|servers)/[^`]*?)/?`", m.group(1)))
    folders = subfolders("servers") + subfolders("kernel") + subfolders("kernel/arch")
    missing = [d for d in folders if not any(n == d or n.startswith(d + "/") for n in named)]
    gone = sorted(n for n in re.findall(r"`((?:kernel|servers)/[^`]*)/`", m.group(1))
                  if not os.path.isdir(os.path.join(ROOT, n)))
    problems = [f"README.md's tree does not name {d}/ (one line: what it holds)" for d in missing]
    problems += [f"README.md's tree names {n}/, which is not there" for n in gone]
    results.report(name, not problems, "; ".join(problems))


def line_counts_problems():
    """The line counts the driver docs quote, each against `wc -l` of its file: the table of
    docs/drivers.md ("| `path` | what | before | now |": now), its "the finished driver is N
    lines" (servers/rtc/rtc.c), and docs/virtio.md's "`path`, N lines"."""
    def lines_of(path):
        with open(os.path.join(ROOT, path)) as f:
            return sum(1 for _ in f)
    quoted = []
    with open(os.path.join(ROOT, "docs", "drivers.md")) as f:
        drivers = f.read()
    quoted += [("docs/drivers.md", p, int(n.replace(",", "")))
               for p, n in re.findall(r"^\| `([^`]+\.c)` \|[^|]*\|[^|]*\| ([\d,]+) \|", drivers,
                                      re.M)]
    quoted += [("docs/drivers.md", "servers/rtc/rtc.c", int(n))
               for n in re.findall(r"the finished\s+driver is (\d+) lines", drivers)]
    with open(os.path.join(ROOT, "docs", "virtio.md")) as f:
        quoted += [("docs/virtio.md", p, int(n))
                   for p, n in re.findall(r"`([^`]+\.c)`, (\d+) lines", f.read())]
    return [f"{doc} says {path} is {n} lines; it is {lines_of(path)}"
            for doc, path, n in quoted if lines_of(path) != n], len(quoted)


def run_line_count_checks(results, pattern):
    """docs/line-counts: every line count the driver docs quote is the file's (typed counts go
    stale)."""
    name = "docs/line-counts"
    if pattern and pattern not in name:
        return
    problems, n = line_counts_problems()
    if not n:
        problems = ["no line count found in docs/drivers.md and docs/virtio.md (the check reads "
                    "nothing)"]
    results.report(name, not problems, "; ".join(problems))


CODE_DIRS = ("kernel", "lib", "servers", "tests", "tools")
CODE_SUFFIXES = (".c", ".h", ".S", ".s", ".py", ".mk", ".sh", ".ld", ".dts", ".dtsi", ".proto")
# "issue" or "issues", then a number: after spaces, a "#", or the comment marks of a wrapped line.
ISSUE_NUMBER = re.compile(r"\bissues?[\s*#/]*\d+", re.I)



def code_files():
    """The code under kernel/, lib/, servers/, tests/ and tools/, and the Makefile (relative)."""
    files = ["Makefile"]
    for top in CODE_DIRS:
        for dirpath, dirnames, filenames in os.walk(os.path.join(ROOT, top)):
            dirnames[:] = [d for d in dirnames if not d.startswith((".", "__"))]
            files += [os.path.relpath(os.path.join(dirpath, f), ROOT) for f in sorted(filenames)
                      if f.endswith(CODE_SUFFIXES) or f == "Makefile"]
    return files


def issue_number_problems():
    """Every place a code file names an issue number, as "path:line: text"."""
    problems = []
    for path in code_files():
        with open(os.path.join(ROOT, path), errors="replace") as f:
            text = f.read()
        for m in ISSUE_NUMBER.finditer(text):
            line = text.count("\n", 0, m.start()) + 1
            problems.append(f"{path}:{line}: {' '.join(m.group(0).split())}")
    return problems


def run_issue_number_check(results, pattern):
    """style/no-issue-numbers: no code file names an issue number. A reader of the code has no
    issue tracker: a comment or a message states the rule or the fact itself (docs/ may cite
    issues, as may git history)."""
    name = "style/no-issue-numbers"
    if pattern and pattern not in name:
        return
    problems = issue_number_problems()
    detail = (f"{len(problems)} issue references in code (state the rule instead): "
              + "; ".join(problems[:20]) + (" ..." if len(problems) > 20 else ""))
    results.report(name, not problems, detail)


# Fault lines as the campaign prints them, one garbled by a faulted console's echo (a line in the
# middle of another), one beyond reading; and what tools/faults.py must read from them.
FAULT_LINES = ("faults: #1 uart reg-saved where=0x13 value=0x35 at-work -> nona\na\n"
               "e in 375 us (0 errors)\n"
               "faults: #2 blk reg-pc where=0x20 value=0x8 -> restart in 9 us (1 errors)\n"
               "faults: #3 rng data where=0x10 value=0x1 -> zzz\n")
FAULT_READ = [("uart", "reg-saved at work", "no effect", 0, 0),
              ("blk", "reg-pc", "crash + restart", 9, 1), ("rng", "data", "garbled", 0, 0)]


def run_fault_log_check(results, pattern):
    """tools/faults-log: the campaign runner reads its fault lines, one a faulted console
    garbled included, and counts one it cannot read apart (its summary once died on one)."""
    name = "tools/faults-log"
    if pattern and pattern not in name:
        return
    sys.path.insert(0, os.path.join(ROOT, "tools"))
    sys.dont_write_bytecode = True
    import faults
    try:
        got = list(faults.faults_of(FAULT_LINES))
        garbled = faults.summary(FAULT_LINES, False, built="fixture").get("garbled_lines")
    except Exception as e:  # noqa: BLE001 (the runner's own failure is the finding)
        got, garbled = f"{type(e).__name__}: {e}", None
    results.report(name, got == FAULT_READ and garbled == 1,
                   f"read {got}, garbled_lines {garbled}; want {FAULT_READ} and 1")


def defined_symbols(*paths):
    """The names of the symbols the objects or ELFs define (nm --defined-only)."""
    out = subprocess.run([NM, "--defined-only", *paths], check=True, capture_output=True,
                         text=True).stdout
    return {line.split()[2] for line in out.splitlines() if len(line.split()) == 3}


def run_build_checks(results, pattern):
    """The shipped kernel (build/kernel.elf) holds no in-kernel test: no symbol that only the
    objects of kernel/test define (a static inline of a shared header that one of them emits
    too is no test's) and none with "ktest" in its name; and the test kernel
    (build/test/kernel.elf) holds every one of them, so that the check looks at what is there."""
    name = "build/no-ktest-in-shipped-kernel"
    if pattern and pattern not in name:
        return
    start = time.monotonic()
    test_tree = os.path.join(BUILD, "test")
    sources = sorted(glob.glob(os.path.join("kernel", "**", "*.[cS]"), root_dir=ROOT,
                               recursive=True))
    objects = {src: os.path.join(test_tree, src + ".o") for src in sources
               if os.path.exists(os.path.join(test_tree, src + ".o"))}
    ktest_objs = [o for src, o in objects.items() if src.startswith("kernel/test/")]
    other_objs = [o for o in objects.values() if o not in ktest_objs]
    problems = []
    try:
        ktest = defined_symbols(*ktest_objs) - defined_symbols(*other_objs) if ktest_objs \
            else set()
        shipped = defined_symbols(os.path.join(BUILD, "kernel.elf"))
        tested = defined_symbols(os.path.join(test_tree, "kernel.elf"))
    except (subprocess.CalledProcessError, FileNotFoundError) as e:
        results.report(name, False, f"{e}: run make kernel test-kernel",
                       time.monotonic() - start)
        return
    if not ktest_objs or not ktest:
        problems.append("no object of kernel/test under build/test defines a symbol")
    if ktest & shipped:
        problems.append("build/kernel.elf defines what kernel/test's objects define: " +
                        " ".join(sorted(ktest & shipped)))
    named = sorted(s for s in shipped if "ktest" in s.lower())
    if named:
        problems.append("build/kernel.elf has symbols named ktest: " + " ".join(named))
    if ktest - tested:
        problems.append("build/test/kernel.elf lacks symbols of kernel/test's objects: " +
                        " ".join(sorted(ktest - tested)))
    if not any("ktest" in s.lower() for s in tested):
        problems.append("build/test/kernel.elf has no symbol named ktest")
    results.report(name, not problems, "; ".join(problems), time.monotonic() - start)


def run_injector_check(results, pattern):
    """The fault injector (kernel/inject: sys_inject) is in the faults kernel
    (build/faults/kernel.elf) and in no other: the shipped and test kernels answer ENOSYS."""
    name = "build/injector-only-in-faults-kernel"
    if pattern and pattern not in name:
        return
    start = time.monotonic()
    try:
        found = {k: "sys_inject" in defined_symbols(os.path.join(ROOT, d, "kernel.elf"))
                 for k, d in (("shipped", "build"), ("test", "build/test"),
                              ("faults", "build/faults"))}
    except (subprocess.CalledProcessError, FileNotFoundError) as e:
        results.report(name, False, f"{e}: run make kernel test-kernel faults-kernel",
                       time.monotonic() - start)
        return
    problems = [f"the {k} kernel defines sys_inject" for k in ("shipped", "test") if found[k]]
    if not found["faults"]:
        problems.append("build/faults/kernel.elf lacks sys_inject")
    results.report(name, not problems, "; ".join(problems), time.monotonic() - start)


def make(target):
    subprocess.run(["make", "--no-print-directory", "-s", target], cwd=ROOT, check=True)
    return os.path.join(ROOT, target)


def dtb_for(c):
    """A malformed tree the case names, or the tree dumped from exactly the case's machine."""
    if c["dtb"]:
        return make(c["dtb"])
    return dtb_for_machine(ROOT, c["variant"], c["smp"], c["mem"], c["qemu_args"])


def initrd_for(c):
    """The module archive the case boots (build/modules.img is made before the run), or None."""
    if not c["initrd"]:
        return None
    if c["initrd"] == qemu_cases.MODULES:
        return os.path.join(ROOT, c["initrd"])
    return make(c["initrd"])


def qemu_command(c, dtb, initrd, monitor=None):
    """QEMU's command line for case c; monitor: the path of the unix socket QEMU's monitor
    listens on (None: no monitor)."""
    monitor_arg = f"unix:{monitor},server=on,wait=off" if monitor else "none"
    cmd = ["qemu-system-riscv64", *MACHINES[c["variant"]], *QEMU_GLOBALS, "-smp", str(c["smp"]),
           "-m", c["mem"], "-display", "none", "-monitor", monitor_arg, "-serial", "stdio",
           "-bios", OPENSBI, "-kernel", kernel_image(ROOT, c["kernel"]), "-dtb", dtb]
    if initrd:
        cmd += ["-initrd", initrd]
    if c["bootargs"]:
        cmd += ["-append", c["bootargs"]]
    cmd += c.get("qemu_args", [])
    if c.get("icount"):
        cmd += icount_args(typed=bool(c["input"] or c["monitor_input"]))
    return cmd


def input_steps(steps):
    """A case's console_input or monitor_input as a list of (pattern, text)."""
    return [] if steps is None else (list(steps) if isinstance(steps, list) else [steps])


def step_due(steps, out):
    """Whether the first step's pattern (a regular expression, or a function of the output)
    was printed."""
    return steps and (steps[0][0](out) if callable(steps[0][0]) else re.search(steps[0][0], out))


class Monitor:
    """QEMU's monitor (HMP) on a unix socket (qemu_command's monitor): send() connects at its
    first command, sends it as a line; what the monitor answers is kept, the transcript."""

    def __init__(self, path):
        self.path, self.sock, self.chunks = path, None, []

    def send(self, command):
        import socket
        if self.sock is None:
            self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            self.sock.connect(self.path)  # QEMU listens before the guest runs
            threading.Thread(target=self.read, daemon=True).start()
        self.sock.sendall(command.encode() + b"\n")

    def read(self):
        try:
            self.chunks.extend(iter(lambda: self.sock.recv(4096), b""))
        except OSError:  # closed under it
            pass

    def transcript(self):
        """What the monitor answered, less the echo of each command (its line editing's)."""
        text = re.sub(r"\x1b\[[0-9;]*[A-Za-z]|\r", "", b"".join(self.chunks).decode(
            errors="replace"))
        return "\n".join(line for line in text.splitlines() if not line.startswith("(qemu)"))

    def close(self):
        if self.sock is not None:
            self.sock.close()


def boot(cmd, timeout, console_input, stop_on=(), monitor=None, monitor_input=None):
    """Run QEMU to its exit; console_input is (pattern, text) or a list of them: type each
    text once its pattern (a regular expression, or a function of the output) was printed, in
    order. monitor_input likewise, but each text a command to QEMU's monitor, on the unix
    socket monitor (qemu_command's). Once a pattern of stop_on is printed the case
    has failed whatever comes next: QEMU is stopped a second later, rather than left to wait
    for input that will never be typed. Returns (output, exit status or None, timed out?, what
    was typed: one line per step, typed (where in the output, when) or never typed, then the
    monitor's transcript if it had a command)."""
    proc = subprocess.Popen(cmd, cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT)
    chunks = []
    reader = threading.Thread(target=lambda: chunks.extend(iter(
        lambda: proc.stdout.read1(4096), b"")), daemon=True)
    reader.start()
    deadline = time.monotonic() + timeout
    steps, commands = input_steps(console_input), input_steps(monitor_input)
    mon = Monitor(monitor) if commands else None
    failed_at, seen, out, typed, start = None, 0, "", [], time.monotonic()
    while proc.poll() is None and time.monotonic() < deadline:
        if len(chunks) != seen:  # read again only what changed
            seen = len(chunks)
            out = b"".join(chunks).decode(errors="replace")
        if step_due(steps, out):
            text = steps.pop(0)[1]
            proc.stdin.write(text.encode())
            proc.stdin.flush()
            typed.append(f"typed {text!r} after {len(out)} characters of output, at "
                         f"{time.monotonic() - start:.2f}s")
        if step_due(commands, out):
            text = commands.pop(0)[1]
            mon.send(text)
            typed.append(f"sent {text!r} to the monitor after {len(out)} characters of output, "
                         f"at {time.monotonic() - start:.2f}s")
        if failed_at is None and any(re.search(p, out) for p in stop_on):
            failed_at = time.monotonic()
        if failed_at is not None and time.monotonic() > failed_at + 1:
            break
        time.sleep(0.01)
    timed_out = proc.poll() is None and failed_at is None
    if proc.poll() is None:
        proc.kill()
    proc.wait()
    reader.join(timeout=2)
    typed += [f"never typed {text!r}: "
              f"{pattern if isinstance(pattern, str) else getattr(pattern, '__name__', pattern)}"
              f" never came" for pattern, text in steps + commands]
    if mon:
        mon.close()
        typed.append("the monitor's transcript:\n" + mon.transcript())
    return b"".join(chunks).decode(errors="replace"), proc.returncode, timed_out, typed


def run_qemu_case(results, c):
    name = f"qemu/{c['name']}"
    for target in c.get("needs", ()):
        make(target)
    dtb = dtb_for(c)
    monitor_dir = tempfile.mkdtemp(prefix="tacet-mon-") if c["monitor_input"] else None
    monitor = os.path.join(monitor_dir, "monitor") if monitor_dir else None
    cmd = qemu_command(c, dtb, initrd_for(c), monitor)
    start = time.monotonic()
    try:
        out, status, timed_out, typed = boot(cmd, c["timeout"], c["input"], c["forbid"],
                                             monitor, c["monitor_input"])
    finally:
        if monitor_dir:
            shutil.rmtree(monitor_dir, ignore_errors=True)
    took = time.monotonic() - start
    out = out.replace("\r\n", "\n")
    log = os.path.join(LOGS, f"qemu-{c['name']}.log")
    with open(log, "w") as f:  # what was typed, after the output (no expectation reads it)
        f.write("$ " + " ".join(cmd) + "\n" + out +
                "".join(f"\n--- tests/run.py: {t}" for t in typed))
    problems = []
    if timed_out:
        problems.append(f"timed out after {c['timeout']}s")
    elif status != c["status"]:
        problems.append(f"QEMU exit status {status}, expected {c['status']}")
    problems += [t for t in typed if t.startswith("never typed")]
    for pattern in c["expect"]:  # a regular expression, or a function of the output
        if not (pattern(out) if callable(pattern) else re.search(pattern, out)):
            problems.append(f"missing /{pattern}/")
    for pattern in c["forbid"]:
        m = re.search(pattern, out)
        if m:
            problems.append(f"unexpected /{pattern}/ in: {out[m.start():m.start() + 120]!r}")
    if c.get("check") and not timed_out:
        try:
            problems += c["check"](out)
        except Exception as e:  # a checker that cannot read the output: this case fails
            problems.append(f"its check could not read the output: {e!r}")
    detail = "; ".join(problems)
    if problems:
        tail = "\n".join("    | " + line for line in out.strip().splitlines()[-12:])
        detail += f"\n  log: {os.path.relpath(log, ROOT)}\n{tail}"
    results.report(name, not problems, detail, took)


def run_make(*args):
    """make -s ARGS in the repository: (exit status, stdout and stderr)."""
    proc = subprocess.run(["make", "--no-print-directory", "-s", *args], cwd=ROOT,
                          capture_output=True, text=True)
    return proc.returncode, proc.stdout + proc.stderr


def make_qemu_tree(*args):
    """The tree `make qemu ARGS` boots (a dry run of `make run` names it), built first."""
    for target in ("dtbs", "-n run"):
        status, out = run_make(*target.split(), "VARIANT=aclint", *args)
        if status != 0:
            raise RuntimeError(f"make {target} {' '.join(args)} failed:\n{out}")
    boot = [line for line in out.splitlines() if "-kernel" in line]
    m = re.search(r" -dtb (\S+)", boot[-1] if boot else "")
    if not m:
        raise RuntimeError(f"make -n run {' '.join(args)}: no -dtb in:\n{out}")
    return os.path.join(ROOT, m.group(1))


def memory_size(dtb):
    cells = subprocess.run(["fdtget", "-t", "x", dtb, "/memory@80000000", "reg"], check=True,
                           capture_output=True, text=True).stdout.split()
    return int(cells[2], 16) << 32 | int(cells[3], 16)


def has_compatible(dtb, compatible):
    dts = subprocess.run(["dtc", "-q", "-I", "dtb", "-O", "dts", dtb], check=True,
                         capture_output=True, text=True).stdout
    return f'"{compatible}"' in dts


def run_dtb_checks(results, pattern):
    """`make qemu` must boot a tree dumped from exactly its machine: QEMU does not fix the tree
    it is given, and one made for MEM=384M kills the kernel on a 256 MiB machine. So after
    the tree for MEM=384M, `make qemu MEM=256M` must boot one that says 256 MiB; and QEMU_EXTRA
    must reach the tree too (-machine aia=aplic puts an APLIC in it)."""
    def check(name, fn):
        if pattern and pattern not in name:
            return
        start = time.monotonic()
        try:
            ok, detail = fn()
        except (RuntimeError, subprocess.CalledProcessError, IndexError, ValueError) as e:
            ok, detail = False, f"{e}"
        results.report(name, ok, detail, time.monotonic() - start)

    def mem():
        make_qemu_tree("SMP=2", "MEM=384M", "QEMU_EXTRA=")
        size = memory_size(make_qemu_tree("SMP=2", "MEM=256M", "QEMU_EXTRA="))
        return size == 256 << 20, f"after MEM=384M, the MEM=256M tree says {size >> 20} MiB"

    def extra():
        aia = make_qemu_tree("SMP=2", "MEM=128M", "QEMU_EXTRA=-machine aia=aplic")
        plain = make_qemu_tree("SMP=2", "MEM=128M", "QEMU_EXTRA=")
        return (has_compatible(aia, "riscv,aplic") and not has_compatible(plain, "riscv,aplic"),
                "the QEMU_EXTRA=\"-machine aia=aplic\" tree has no APLIC, or the plain one has")

    check("dtb/make-qemu-follows-MEM", mem)
    def variant_aia():
        aia = make_qemu_tree("SMP=2", "MEM=128M", "QEMU_EXTRA=", "VARIANT=aia")
        plain = make_qemu_tree("SMP=2", "MEM=128M", "QEMU_EXTRA=")
        ok = (has_compatible(aia, "riscv,imsics") and has_compatible(aia, "riscv,aplic")
              and not has_compatible(plain, "riscv,imsics"))
        return ok, "the VARIANT=aia tree lacks an IMSIC or an APLIC, or the default tree has one"

    check("dtb/make-qemu-follows-QEMU_EXTRA", extra)
    check("dtb/variant-aia", variant_aia)
    check("dtb/dump-in-background-group", dump_in_background_group)


# A machine no other test dumps, so that its tree is dumped afresh here.
BACKGROUND_DUMP_ARGS = ("VARIANT=aclint", "SMP=3", "MEM=96M", "QEMU_DEVICES=", "QEMU_EXTRA=")
BACKGROUND_DUMP_WAIT = 30  # seconds; the dump takes well under one


def dump_in_background_group():
    """`timeout make dtbs` on a terminal must finish: timeout runs make in a process group of
    its own, a background one, and a QEMU there that touches the terminal is stopped (SIGTTOU)
    for good. The terminal is a pseudo-terminal this test opens, the controlling terminal of
    a session of its own (sh, in the foreground group); the tree is removed first so that the
    dump runs. (ok, why)."""
    import fcntl
    import termios
    status, out = run_make("-n", "print-dtb", *BACKGROUND_DUMP_ARGS)
    dtb = re.search(r"^echo (\S+)\.dtb$", out, re.M)
    if status != 0 or not dtb:
        return False, f"make -n print-dtb names no tree:\n{out}"
    for path in (dtb.group(1) + ".qemu.dtb", dtb.group(1) + ".dtb"):
        if os.path.exists(os.path.join(ROOT, path)):
            os.remove(os.path.join(ROOT, path))
    master, slave = os.openpty()
    script = (f'timeout {BACKGROUND_DUMP_WAIT * 2} make -s --no-print-directory dtbs "$@"; '
              'echo "make dtbs: exit $?"')
    proc = subprocess.Popen(["sh", "-c", script, "sh", *BACKGROUND_DUMP_ARGS], cwd=ROOT,
                            stdin=slave, stdout=slave, stderr=slave, start_new_session=True,
                            preexec_fn=lambda: fcntl.ioctl(0, termios.TIOCSCTTY, 0))
    os.close(slave)
    try:
        proc.wait(timeout=BACKGROUND_DUMP_WAIT)
        finished = True
    except subprocess.TimeoutExpired:
        finished = False
        proc.kill()  # its background group, orphaned with a stopped member, gets SIGHUP
        proc.wait()
    out = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:
            break
        if not chunk:
            break
        out += chunk
    os.close(master)
    text = out.decode(errors="replace").replace("\r", "").strip()
    if not finished:
        return False, (f"timeout make dtbs on a terminal had not finished after "
                       f"{BACKGROUND_DUMP_WAIT}s: the dump's QEMU stopped by SIGTTOU in "
                       f"timeout's background process group? {text!r}")
    return "make dtbs: exit 0" in text, f"timeout make dtbs on a terminal: {text!r}"


# The recorded ring the converter's check reads (tests/trace/uart-smp2.log: `trace dump` of a
# 2-hart boot of init, the console and hello under -icount, trace=on, typed once hello had
# ended: `tools/trace/trace.py record --smp 2 --bootargs "init.run=^uart=console:ns16550a,hello/50"
# --until "init: server hello finished with status 0"`) and what its conversion holds: hello's
# runs named by its THREAD event, though the dump's live threads no longer list it.
TRACE_FIXTURE = os.path.join(ROOT, "tests", "trace", "uart-smp2.log")
TRACE_FIXTURE_EXPECT = {"events": {"0": 87, "1": 1}, "irq_count_trace": {"10": 18}, "flows": 1,
                        "slices": {"idle": 1, "run": 21, "top half": 18},
                        "runs": ["hello:4", "init:1", "init:2", "uart:3"]}
# make trace's default scenario: edu_trace's 1,000 interrupts in each of four drivers, on the
# lines of the edu devices in slots 1-4 (one driver may run twice on the first free device).
TRACE_EDU_LINES = (32, 33, 34, 35)
TRACE_EDU_INTERRUPTS = 4000
# Each is acknowledged handled once. Top halves may be a few more: QEMU raises an edu line
# once more when another function's INTx Disable changes during its flood (servers/edu/edu.c,
# MAX_UNEVEN: two per change), and pci quiets each function as its driver ends, while the
# others' floods run (six changes at most: three releases, three INTx on).
TRACE_EDU_EXTRA_MAX = 12


def run_trace_checks(results, pattern, qemu):
    """trace/converter-fixture: tools/trace/trace.py converts the recorded ring
    (TRACE_FIXTURE) into tracks, slices and flows that pass tests/trace/check.py, with the
    counts it holds. trace/make-trace-edu-flood: `make trace` boots the edu flood with trace=on
    and writes build/trace/trace.json, which passes the same checks, every edu line's top
    halves as many as the kernel counted, 4,000 interrupts acknowledged handled."""
    sys.path.insert(0, os.path.join(ROOT, "tests", "trace"))
    sys.path.insert(0, os.path.join(ROOT, "tools", "trace"))
    import check as trace_check  # noqa: E402
    import trace as trace_tool  # noqa: E402

    def counts(t):
        slices = {}
        for e in t["traceEvents"]:
            if e["ph"] == "X":
                slices[e["cat"]] = slices.get(e["cat"], 0) + 1
        return slices

    name = "trace/converter-fixture"
    if not pattern or pattern in name:
        start = time.monotonic()
        try:
            t = trace_tool.convert_file(TRACE_FIXTURE, os.path.join(BUILD, "trace-fixture.json"),
                                        1000.0)
            p = trace_check.problems(t, [10])
            o = t["otherData"]
            got = {"events": o["events"], "irq_count_trace": o["irq_count_trace"],
                   "flows": o["flows"], "slices": {k: v for k, v in counts(t).items()
                                                   if k in ("idle", "run", "top half")},
                   "runs": sorted({e["name"] for e in t["traceEvents"]
                                   if e["ph"] == "X" and e["cat"] == "run"})}
            if got != TRACE_FIXTURE_EXPECT:
                p.append(f"converted {got}, expected {TRACE_FIXTURE_EXPECT}")
        except (trace_tool.TraceError, OSError, KeyError, ValueError) as e:
            p = [f"{type(e).__name__}: {e}"]
        results.report(name, not p, "; ".join(p), time.monotonic() - start)
    name = "trace/make-trace-edu-flood"
    if qemu and (not pattern or pattern in name):
        start = time.monotonic()
        out = os.path.join(BUILD, "trace", "trace.json")
        if os.path.exists(out):
            os.remove(out)
        status, log = run_make("trace")
        with open(os.path.join(LOGS, "trace.log"), "w") as f:
            f.write(log)
        if status != 0 or not os.path.exists(out):
            p = [f"make trace failed (exit {status}): " + " | ".join(log.strip().splitlines()[-5:])]
        else:
            import json
            with open(out) as f:
                t = json.load(f)
            lines = [ln for ln in TRACE_EDU_LINES if str(ln) in t["otherData"]["irq_count_kernel"]]
            p = trace_check.problems(t, lines)
            edu = sum(t["otherData"]["irq_count_trace"].get(str(ln), 0) for ln in lines)
            handled = sum(1 for e in t["traceEvents"] if e.get("name", "").startswith("ack ")
                          and e.get("args", {}).get("line") in lines
                          and e["args"].get("handled"))
            if handled != TRACE_EDU_INTERRUPTS:
                p.append(f"{handled} acknowledged handled on the edu lines, "
                         f"{TRACE_EDU_INTERRUPTS} expected")
            if not TRACE_EDU_INTERRUPTS <= edu <= TRACE_EDU_INTERRUPTS + TRACE_EDU_EXTRA_MAX:
                p.append(f"{edu} top halves on the edu lines, {TRACE_EDU_INTERRUPTS} to "
                         f"{TRACE_EDU_INTERRUPTS + TRACE_EDU_EXTRA_MAX} expected")
            if not t["otherData"]["flows"]:
                p.append("no flow arrow from an interrupt to a server")
        results.report(name, not p, "; ".join(p[:10]), time.monotonic() - start)


def run_bench_checks(results, stress=False):
    """The benchmarks must give the same figures on every run, and each figure must stay
    within its budget (tests/bench/benchmarks.py): boot them all twice, check both. The stress
    benchmarks (bench.py --stress, 4 and 8 harts, seconds where the others take a fraction of
    one) are cases of their own: bench/stress-deterministic, bench/stress-budgets, and
    bench/stress-same-hart-bound (every same-hart sample at or under the same-hart bound,
    10,000 instructions: docs/benchmarks.md, "The tail under stress"; bench.py checks it on
    every stress run)."""
    case = "bench/stress-" if stress else "bench/"
    log = "bench-stress.log" if stress else "bench.log"
    start = time.monotonic()
    proc = subprocess.run([sys.executable, os.path.join(ROOT, "tests", "bench", "bench.py"),
                           "--check-deterministic", "--check-budgets",
                           *(["--stress"] if stress else ["--check-scaling", "--plots"])],
                          cwd=ROOT,
                          capture_output=True, text=True, timeout=1800 if stress else 600)
    out = proc.stdout + proc.stderr
    with open(os.path.join(LOGS, log), "w") as f:
        f.write(out)
    took = time.monotonic() - start
    tail = "\n".join("    | " + line for line in out.strip().splitlines()[-8:])
    deterministic = "bench: deterministic:" in out
    results.report(f"{case}deterministic", deterministic,
                   f"figures differ between two runs, or a benchmark failed "
                   f"(build/test-logs/{log})\n{tail}", took)
    if deterministic:
        results.report(f"{case}budgets", "within their budgets" in out,
                       f"a path got slower than its budget (build/test-logs/{log})\n{tail}")
    if deterministic and not stress:
        results.report("bench/masked-threaded", "bench: masked-threaded: every" in out,
                       f"a relation of the masked-vs-threaded experiment does not hold "
                       f"(build/test-logs/{log})\n{tail}")
        results.report("bench/service-loop", "bench: service-loop: a service" in out,
                       f"an interrupt reaches a service loop's driver slower than a plain "
                       f"waiter (build/test-logs/{log})\n{tail}")
        results.report("bench/scaling", "bench: scaling:" in out and
                       "bench: FAIL scaling" not in out,
                       f"a scaling curve is not flat where flat is the goal, or arming a timer "
                       f"grows faster than logarithmically (build/test-logs/{log})\n{tail}")
        ok, why = check_charts()
        results.report("bench/plots", ok, why)
    if deterministic and stress:
        results.report("bench/stress-same-hart-bound", "bench: same-hart bound:" in out,
                       f"a same-hart sample above the same-hart bound of 10,000 instructions "
                       f"(build/test-logs/{log})\n"
                       f"{tail}")


def run_wall_check(results):
    """bench/wall-shape: the wall-clock stress benchmark (bench.py --wall, make bench-wall) runs:
    every boot is clean, every stressor completes, each phase reports the driver, the line and
    each hart, and the ratios are printed. Its shape only, never a bound on time (a wall-clock
    figure moves with the host's load)."""
    start = time.monotonic()
    proc = subprocess.run([sys.executable, os.path.join(ROOT, "tests", "bench", "bench.py"),
                           "--wall"], cwd=ROOT, capture_output=True, text=True, timeout=900)
    out = proc.stdout + proc.stderr
    with open(os.path.join(LOGS, "bench-wall.log"), "w") as f:
        f.write(out)
    tail = "\n".join("    | " + line for line in out.strip().splitlines()[-8:])
    ok = proc.returncode == 0 and "ratios to the busy phase printed" in out and all(
        re.search(rf"^{b}: ratio ", out, re.M) for b in wall_boots())
    results.report("bench/wall-shape", ok, f"a wall-clock stress boot failed, or a phase or "
                   f"its ratios are missing (build/test-logs/bench-wall.log)\n{tail}",
                   time.monotonic() - start)


def wall_boots():
    sys.path.insert(0, os.path.join(ROOT, "tests", "bench"))
    sys.dont_write_bytecode = True
    import benchmarks
    return [b[0] for b in benchmarks.WALL_STRESS]


def check_charts():
    """make bench's charts (tests/bench/plots.py) must be there, parse as XML (SVG) and name
    what they show: each its title, the latency chart every reference kernel and latency
    figure, the histograms each figure they hold, the scaling chart each curve, the
    controllers chart each controller, path and figure. (ok, why)."""
    import xml.etree.ElementTree as ET
    sys.path.insert(0, os.path.join(ROOT, "tests", "bench"))
    sys.dont_write_bytecode = True
    import benchmarks  # every figure's declaration: which charts show it
    figures = benchmarks.figures()
    names = {
        "latency.svg": ["Latency", "seL4 IPC call+reply", "seL4 signal -> waiting thread",
                        "xv6 null system call", "seL4 IRQ -> user handler",
                        *(f.name for f in figures if f.latency),
                        *(f.latency for f in figures if f.latency)],
        "histograms.svg": ["Histograms", *(f.name for f in figures if f.histogram)],
        "scaling.svg": ["Scaling curves", *(f"{prefix}_N" for prefix in benchmarks.SCALING)],
        "controllers.svg": ["Interrupt controllers", *benchmarks.CONTROLLERS,
                            *(label for label, _ in benchmarks.CONTROLLER_PATHS),
                            *(n for _, names in benchmarks.CONTROLLER_PATHS for n in names)],
    }
    for chart, wanted in names.items():
        path = os.path.join(ROOT, "build", "bench", chart)
        try:
            root = ET.parse(path).getroot()
        except (OSError, ET.ParseError) as e:
            return False, f"    | build/bench/{chart}: not an SVG that parses: {e}"
        text = " ".join("".join(el.itertext()) for el in root.iter()
                        if el.tag.endswith("}text") or el.tag.endswith("}title"))
        missing = [w for w in wanted if w not in text]
        if not root.tag.endswith("svg") or missing:
            return False, (f"    | build/bench/{chart}: no {', '.join(missing) or 'svg root'} "
                           f"in its text (tests/bench/plots.py)")
    return True, ""


def run_bench_docs_check(results):
    """docs/benchmarks.md's figures table must hold the figures the benchmarks have just
    measured (build/bench/results.json) and the budgets (tests/bench/figures.py --check)."""
    proc = subprocess.run([sys.executable, os.path.join(ROOT, "tests", "bench", "figures.py"),
                           "--check"], cwd=ROOT, capture_output=True, text=True)
    out = (proc.stdout + proc.stderr).strip()
    results.report("bench/docs-figures", proc.returncode == 0,
                   "\n".join("    | " + line for line in out.splitlines()))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-k", dest="pattern", default="", help="run tests whose name contains this")
    ap.add_argument("--no-host", action="store_true")
    ap.add_argument("--no-qemu", action="store_true")
    ap.add_argument("--no-bench", action="store_true")
    args = ap.parse_args()
    os.makedirs(LOGS, exist_ok=True)
    results = Results()
    run_docs_checks(results, args.pattern)
    run_line_count_checks(results, args.pattern)
    run_issue_number_check(results, args.pattern)
    run_fault_log_check(results, args.pattern)
    if not args.no_host:
        run_host_tests(results, args.pattern)
        run_static_checks(results, args.pattern)
        run_build_checks(results, args.pattern)
        run_injector_check(results, args.pattern)
        run_proto_checks(results, args.pattern)
    if not args.no_host or not args.no_qemu:
        run_trace_checks(results, args.pattern, not args.no_qemu)
    if not args.no_qemu:
        run_dtb_checks(results, args.pattern)
        for c in (run for c in qemu_cases.CASES for run in qemu_cases.on_variants(c)):
            if args.pattern and args.pattern not in f"qemu/{c['name']}":
                continue
            run_qemu_case(results, c)
    if not args.no_bench and not args.no_qemu and (not args.pattern or args.pattern in "bench"):
        run_bench_checks(results)
        run_bench_checks(results, stress=True)
        if not {"bench/deterministic", "bench/stress-deterministic"} & set(results.failed):
            run_bench_docs_check(results)  # results.json is this run's
    if not args.no_bench and not args.no_qemu and args.pattern in "bench/wall-shape":
        run_wall_check(results)
    if results.failed:
        print("failed: " + " ".join(results.failed))
    print(f"{results.passed} passed, {len(results.failed)} failed")
    return 1 if results.failed else 0


if __name__ == "__main__":
    sys.exit(main())
