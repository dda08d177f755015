"""machine.py: the device tree for one QEMU machine, as the Makefile makes it (make print-dtb),
the kernel a boot loads, and the deterministic machine's flags (icount_args), for tests/run.py,
tests/bench/bench.py and tools/trace/trace.py. QEMU does not fix the
memory or devices of a tree given with -dtb, so a boot must get the tree dumped from exactly
the machine it starts: the Makefile names each tree after the machine's variant, harts, memory
and extra arguments."""
import os
import re
import shlex
import subprocess

_trees = {}

# QEMU's -machine and -cpu for each of the Makefile's variants (its QEMU_MACHINE_*), for the
# tests' and the benchmarks' boots.
MACHINES = {
    "aclint": ["-machine", "virt,aclint=on", "-cpu", "rv64"],
    "sbi": ["-machine", "virt,aclint=off", "-cpu", "rv64"],
    "nosstc": ["-machine", "virt,aclint=on", "-cpu", "rv64,sstc=off"],
    "aia": ["-machine", "virt,aia=aplic-imsic", "-cpu", "rv64"],
}

# The kernels the Makefile builds, by the folder they are built in: the shipped one (make
# kernel), and the test kernel (make test-kernel: the same plus the in-kernel tests of
# kernel/test, which boot arguments choose with test=NAME), and the faults kernel (make
# faults-kernel: the shipped one plus the fault injector, kernel/inject; cases_faults.py).
KERNELS = {"shipped": "build", "test": "build/test", "faults": "build/faults"}
IN_KERNEL_TEST = re.compile(r"(?:^|\s)test=")


def icount_args(typed=False):
    """QEMU's flags for the deterministic machine, the one definition (tests/run.py's icount
    cases, the benchmarks, make trace): guest time is the retired-instruction count (-icount
    shift=0: one instruction a nanosecond), QEMU's random seed is fixed, and the RTC reads the
    guest's clock (-rtc clock=vm; on the host's, an alarm set in RTC time fires at the host's
    pace while guest time races through an idle wait, and RTC figures are noise). typed: the
    run types at the console, so a hart idles with sleep=on (with sleep=off QEMU 7.2 never
    delivers a typed key, nor a monitor command, to an idle machine: the run waits for its
    whole timeout)."""
    return ["-icount", f"shift=0,align=off,sleep={'on' if typed else 'off'}", "-seed", "1",
            "-rtc", "clock=vm"]


def kernel_for(bootargs):
    """The kernel a boot with these boot arguments needs: the test kernel for an in-kernel
    test, else the shipped one."""
    return "test" if IN_KERNEL_TEST.search(bootargs) else "shipped"


def kernel_image(root, kernel, suffix=".bin"):
    """The absolute path of kernel's image (a key of KERNELS; suffix ".elf": its ELF)."""
    return os.path.join(root, KERNELS[kernel], "kernel" + suffix)


def dtb_for_machine(root, variant, smp, mem, extra=()):
    """Builds (if needed) the tree for -smp smp -m mem and the extra QEMU arguments on the
    Makefile's machine variant; returns its absolute path. One make call per machine and
    process."""
    key = (variant, str(smp), mem, tuple(extra))
    if key not in _trees:
        proc = subprocess.run(
            ["make", "--no-print-directory", "-s", "print-dtb", f"VARIANT={variant}",
             f"SMP={smp}", f"MEM={mem}", "QEMU_DEVICES=", "QEMU_EXTRA=" + shlex.join(extra)],
            cwd=root, capture_output=True, text=True)
        lines = proc.stdout.strip().splitlines()
        if proc.returncode != 0 or not lines:
            raise RuntimeError(f"make print-dtb for {' '.join(key[:3])} {shlex.join(extra)} "
                               f"failed:\n{proc.stdout}{proc.stderr}")
        _trees[key] = os.path.join(root, lines[-1])
    return _trees[key]
