"""machine.py: the device tree for one QEMU machine, as the Makefile makes it (make print-dtb),
for tests/run.py and tests/bench/bench.py. QEMU does not fix the memory or devices of a tree
given with -dtb, so a boot must get the tree dumped from exactly the machine it starts: the
Makefile names each tree after the machine's variant, harts, memory and extra arguments."""
import os
import shlex
import subprocess

_trees = {}


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
