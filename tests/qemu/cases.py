"""cases.py: the QEMU test cases. Each boots the real kernel on one machine variant and checks
what it prints and how QEMU exits.

A case: name, variant (a QEMU_MACHINE_* in the Makefile), smp, mem (-m), bootargs (-append),
the regular expressions that must all appear in the serial output, the QEMU exit status (the
sifive test device's code: 0 pass, 1 kernel panic, 2 in-kernel test failure, 3 init failed,
4 no init to start), and a timeout in seconds. Each case boots the device tree the Makefile
dumps for exactly its machine (variant, smp, mem, qemu_args), unless it names a malformed one,
and the shipped kernel (build/kernel.bin), or the test kernel (build/test/kernel.bin) when
its boot arguments choose an in-kernel test (test=NAME): only the test kernel has them.
"""

import glob
import importlib.util
import os
import re

from machine import kernel_for

PANIC = 1
NO_INIT = 4  # ROOTSERVER_FAIL_EXIT_CODE (kernel/core/rootserver.h): bad boot input
MODULES = "build/modules.img"


# The machines of each interrupt controller: the PLIC's (the default) and the AIA's (an APLIC
# in MSI mode and an IMSIC per hart). A case that says variants=CONTROLLERS runs on both.
CONTROLLERS = ("aclint", "aia")


def case(name, expect, variant="aclint", smp=4, bootargs="", status=0, timeout=30,
         dtb=None, forbid=(r"PANIC", r"FAIL"), console_input=None, icount=False, qemu_args=(),
         mem="128M", initrd=MODULES, check=None, needs=(), kernel=None, monitor_input=None,
         variants=None):
    """variants: the machine variants the case runs on, each a run of its own (on_variants):
    named as the case on the first, which is its variant, and NAME@VARIANT on the others.
console_input: (pattern, text): type text on the serial console once pattern appears
    (or a list of them, in order).
    monitor_input: (pattern, command) or a list of them: send command to QEMU's monitor (HMP,
    as typed at `(qemu)`: `system_reset`, `info status`, `quit`) once pattern appears in the
    serial output. The case's QEMU then has its monitor on a unix socket of its own (else none);
    what the monitor answers goes to the case's log, after the output, not into what the
    expectations read: a case shows a command's effect by what the guest prints.
    icount: run on the deterministic machine (tests/machine.py's icount_args: -icount shift=0,
    -seed 1, -rtc clock=vm), so that guest time, and the RTC's, is the retired-instruction count
    and the run is deterministic (for timing-sensitive checks); a case with console_input idles
    with sleep=on (monitor_input too), where QEMU delivers what it types.
    qemu_args: more QEMU arguments (extra devices). dtb: a malformed tree (a make target) to
    boot instead of the machine's own. initrd: the module archive (a make target), or None.
    check: a function of the serial output that returns a list of problems (empty: fine), run
    after the boot, for what a regular expression cannot say (a date within a minute of the
    host's, the order of events in a QEMU trace).
    needs: files the case's QEMU arguments name (make targets, e.g. a disk image), made first.
    kernel: the kernel booted, a key of machine.KERNELS: "test" (the test kernel) when bootargs
    choose an in-kernel test (test=NAME), else "shipped"."""
    if variants:
        variant = variants[0]
    return dict(name=name, variant=variant, variants=tuple(variants or (variant,)), smp=smp,
                bootargs=bootargs, expect=expect,
                status=status, timeout=timeout, dtb=dtb, forbid=forbid, input=console_input,
                icount=icount, qemu_args=list(qemu_args), mem=mem, initrd=initrd, check=check,
                needs=list(needs), kernel=kernel or kernel_for(bootargs),
                monitor_input=monitor_input)


def for_variant(c, variant):
    """Case c on one variant: an expectation, the console input's text, or icount, that is a
    dict (variant -> the value there) gives that variant's."""
    def pick(v):
        return v[variant] if isinstance(v, dict) else v
    given = c["input"]
    if isinstance(given, tuple):
        given = (given[0], pick(given[1]))
    return dict(c, variant=variant, expect=[pick(e) for e in c["expect"]], input=given,
                icount=pick(c["icount"]))


def on_variants(c):
    """The runs of case c, one per variant it declares: c itself on its first, a copy on each
    other with the variant and the name (NAME@VARIANT) changed; each with its variant's
    expectations and input (for_variant)."""
    return [for_variant(c, c["variant"])] + \
        [dict(for_variant(c, v), name=f"{c['name']}@{v}") for v in c["variants"][1:]]


class spliced:
    """An expected line that another printer may cut into: the kernel's debug output (the
    kernel itself, and every server not attached to the console) and the console server write
    to the one UART independently, so either may cut into a line of the other. Between any two
    characters of the line may come either up to 16 bytes of the other printer within a line
    (a burst of the console server: the UART's FIFO), or the rest of a line and up to 2 more
    whole lines (the line goes on at the start of a line); at most CUTS times in the line (a
    burst that ends a line and begins the next is two). Every character of the line must still
    come, in order, in at most CUTS + 1 pieces.

    parts alternate between literal text and regular expressions that stand as they are (a
    number), e.g. spliced("squatter: ", r"\d+", " tries"). In a case's expectations it
    stands where a regular expression would (tests/run.py calls it on the output); no regular
    expression does this without backtracking for ever when the line is missing."""
    BURST = 16
    LINES = 3
    CUTS = 2

    def __init__(self, *parts):
        self.parts = parts
        self.tokens = []
        for i, part in enumerate(parts):
            if i % 2:
                self.tokens.append(re.compile(part))
            else:
                self.tokens += list(part)

    def __str__(self):
        return "spliced" + repr(self.parts)

    def _after_cut(self, out, pos):
        """Every position a cut starting at pos may end at."""
        nl = out.find("\n", pos)
        stop = len(out) if nl < 0 else nl
        ends = list(range(pos + 1, min(pos + self.BURST, stop) + 1))
        for _ in range(self.LINES):
            if nl < 0:
                break
            ends.append(nl + 1)
            nl = out.find("\n", nl + 1)
        return ends

    def _match(self, token, out, pos):
        """The end of token matched at pos, or None."""
        if isinstance(token, str):
            return pos + 1 if out.startswith(token, pos) else None
        m = token.match(out, pos)
        return m.end() if m else None

    def __call__(self, out):
        # The line starts with its first two tokens uncut (a cut after its first character
        # only is not looked for: a search from every place one character matches is slow).
        first, ends, p = self.tokens[0], set(), 0
        if isinstance(first, str):
            while (p := out.find(first, p)) >= 0:
                p += 1
                ends.add(p)
        else:
            ends = {m.end() for m in first.finditer(out)}
        tokens = self.tokens[1:]
        if tokens:
            ends = {e for p in ends for e in [self._match(tokens[0], out, p)] if e is not None}
            tokens = tokens[1:]
        states = {(e, 0) for e in ends}  # (where the line goes on, cuts so far)
        for token in tokens:
            after = set()
            for s, cuts in states:
                e = self._match(token, out, s)
                if e is not None:  # goes on uncut (a cut is looked for only where it must be)
                    after.add((e, cuts))
                    continue
                reach, more = {}, [s]
                for used in range(cuts + 1, self.CUTS + 1):  # cuts in a row count each
                    more = [q for p in more for q in self._after_cut(out, p) if q not in reach]
                    reach.update((q, used) for q in more)
                for p, used in reach.items():
                    e = self._match(token, out, p)
                    if e is not None:
                        after.add((e, used))
            states = after
            if not states:
                return False
        return True


CASES = []

# What `make qemu` attaches for the default boot arguments (rng:virtio-rng, blk:virtio-blk,
# net=net0:virtio-net): the cases that boot them attach the same, the disk being the tests'
# (writes never reach it), the network card on QEMU's user network without forwarded ports.
DEFAULT_DEVICES = ("-device", "virtio-rng-device",
                   "-drive", "file=build/blk-test.img,if=none,format=raw,id=disk0,snapshot=on",
                   "-device", "virtio-blk-device,drive=disk0",
                   "-netdev", "user,id=net0", "-device", "virtio-net-device,netdev=net0")
DEFAULT_NEEDS = ("build/blk-test.img",)
# The default boot's IP stack has its lease, and the servers over it (echo, http, iperf) are up:
# what they print comes through the kernel's output, which may cut into the console's lines, so
# the cases that boot them type only after all four.
DEFAULT_LEASE = "ip: 10.0.2.15/24 gw 10.0.2.2 via net0"
DEFAULT_LAST = (spliced(DEFAULT_LEASE), spliced("echo: echoing on UDP and TCP port 7"),
                spliced("http: serving /irqs and /metrics on TCP port 80 "),
                spliced("iperf: iperf 2 server on TCP port 5001"))


def low_below_dma(out):
    """The shell's `mem`: the end of the low side (the kernel's pages, frames not for DMA) lies
    at or below the lowest DMA frame."""
    m = re.search(r"kernel and frames below (0x[0-9a-f]+), DMA frames from (0x[0-9a-f]+)", out)
    if not m:
        return ["no `mem` line saying where the kernel's pages and the DMA frames lie"]
    top, bottom = int(m.group(1), 16), int(m.group(2), 16)
    return [] if top <= bottom else [f"the low side up to {top:#x} lies above a DMA frame at "
                                     f"{bottom:#x}"]


def default_boot_quiet(out):
    """The default boot's servers have printed their last start-up line."""
    return all(line(out) for line in DEFAULT_LAST)


def two_prompts(out):
    """The shell has prompted twice: at its start, and after the empty line typed."""
    return out.count("tacet> ") >= 2


def default_boot_input(commands):
    """console_input for a case that boots the default boot arguments: once the other servers
    have printed their last start-up lines (the IP stack's lease, its servers' starts), an
    empty line for a prompt after them, then commands: what they print is the console's alone."""
    return [(default_boot_quiet, "\r"), (two_prompts, commands)]

for n in (1, 2, 4, 8):
    CASES.append(case(f"boot-smp{n}", [rf"harts online: {n}\n", r"ktest: boot: PASS"],
                      smp=n, bootargs="test=boot"))

CASES += [
    case("boot-banner", [r"Tacet microkernel", r"memory: 0x80000000-0x88000000 \(128 MiB\)",
                         r"timer: sstc stimecmp, 10000000 Hz; ipi: aclint sswi",
                         r"serial@10000000\s+ns16550a\s+0x10000000.* irq 10",
                         r"plic@c000000", r"harts online: 4\n", r"ktest: boot: PASS"],
         bootargs="test=boot"),
    # The kernel picks its interrupt controller from the tree: the PLIC on the default machine,
    # the APLIC and IMSICs on the AIA's, whose tree has no PLIC.
    case("boot-irq-plic", [r"irq: plic, 96 lines\n", r"plic@c000000", r"ktest: boot: PASS"],
         bootargs="test=boot"),
    case("boot-irq-aia", [r"irq: aia: aplic in msi mode, an imsic file a hart, 96 lines\n",
                          r"imsics@28000000", r"ktest: boot: PASS"],
         variant="aia", bootargs="test=boot", forbid=(r"PANIC", r"FAIL", r"\bplic")),
    # Not the default 128 MiB: the case must boot a tree dumped for 256 MiB, not a stale one.
    case("boot-mem256M", [r"memory: 0x80000000-0x90000000 \(256 MiB\)", r"ktest: boot: PASS"],
         smp=2, mem="256M", bootargs="test=boot"),
    # The page allocator on the machine: every free page handed out once (zeroed, inside RAM,
    # outside reserved memory and the image), all back, some reused (kernel/test/ktest_mm.c).
    case("mm-drain-128M", [r"ktest: mm: (3\d{4}) of 3\d{4} pages handed out, each zeroed and "
                           r"free RAM; 64 reused zeroed; \1 free again", r"ktest: mm: PASS"],
         smp=2, bootargs="test=mm"),
    case("mm-drain-2G", [r"memory: 0x80000000-0x100000000 \(2048 MiB\)",
                         r"ktest: mm: (52\d{4}) of 52\d{4} pages handed out, each zeroed and "
                         r"free RAM; 64 reused zeroed; \1 free again", r"ktest: mm: PASS"],
         smp=2, mem="2G", bootargs="test=mm", timeout=120),  # ~20 s: memset is byte-wise
    case("timer-smp1", [r"hart 0: \d+ timer interrupts", r"ktest: timer: PASS"],
         smp=1, bootargs="test=timer"),
    case("timer-smp4", [r"hart 3: \d+ timer interrupts", r"ktest: timer: PASS"],
         bootargs="test=timer"),
    case("timer-smp4-sbi-set-timer", [r"timer: sbi set_timer", r"hart 3: \d+ timer interrupts",
                                      r"ktest: timer: PASS"],
         variant="nosstc", bootargs="test=timer"),
    case("ipi-smp2-sswi", [r"ipi: 2 ordered pairs x 100 round trips through aclint sswi",
                           r"ktest: ipi: PASS"], smp=2, bootargs="test=ipi"),
    case("ipi-smp4-sswi", [r"ipi: 12 ordered pairs x 100 round trips through aclint sswi",
                           r"ktest: ipi: PASS"], bootargs="test=ipi"),
    case("ipi-smp8-sswi", [r"ipi: 56 ordered pairs x 100 round trips through aclint sswi",
                           r"ktest: ipi: PASS"], smp=8, bootargs="test=ipi"),
    case("ipi-smp4-sbi", [r"ipi: 12 ordered pairs x 100 round trips through sbi send_ipi",
                          r"ktest: ipi: PASS"], variant="sbi", bootargs="test=ipi"),
    # IPIs through the AIA's IMSIC files (ipi=imsic: an identity stored into the target hart's
    # file, taken by its claim or its IPI wait), on the deterministic machine: QEMU 7.2's IMSIC
    # loses a message racing the target's own access to its file when harts are host threads
    # (aia.c). Without ipi=imsic the AIA machine's IPIs are SBI calls.
    case("ipi-smp4-imsic", [r"timer: [^\n]*; ipi: imsic\n",
                            r"ipi: 12 ordered pairs x 100 round trips through imsic",
                            r"ktest: ipi: PASS"],
         variant="aia", bootargs="test=ipi ipi=imsic", icount=True),
    case("ipi-smp8-imsic", [r"ipi: 56 ordered pairs x 100 round trips through imsic",
                            r"ktest: ipi: PASS"],
         variant="aia", smp=8, bootargs="test=ipi ipi=imsic", icount=True),
    case("stack-overflow-kernel",
         [r"kernel stack overflow on hart 0: the kernel stack guard page was hit",
          r"PANIC on hart 0: kernel stack overflow on hart 0 \(kernel stack\)",
          r"scause 0xf \(store page fault\)", r"recurse[\w.]*\+0x", r"test_stack_overflow\+0x",
          r"powering off after panic"],
         bootargs="test=stack_overflow", status=PANIC, forbid=(r"FAIL",)),
    case("stack-overflow-interrupt",
         [r"kernel stack overflow on hart 0: the interrupt stack guard page was hit",
          r"PANIC on hart 0: kernel stack overflow on hart 0 \(interrupt stack\)",
          r"recurse[\w.]*\+0x", r"powering off after panic"],
         bootargs="test=irq_stack_overflow", status=PANIC, forbid=(r"FAIL",)),
    case("uart-irq-plic",
         [r'uart: received "tacet" in [1-5] interrupts with data \(and [0-4] that found the '
          r'receiver empty\) of line 10 on hart 0, 0 spurious',
          r"ktest: uart_irq: PASS"],
         bootargs="test=uart_irq", console_input=(r'ktest: type "tacet"', "tacet")),
    # The same on the AIA's machine with IPIs through the IMSIC (deterministic: aia.c): every
    # IPI is an external interrupt there, and one that came alone leaves an empty claim, which
    # is no spurious interrupt.
    case("uart-irq-aia-ipi-imsic",
         [r"; ipi: imsic\n",
          r'uart: received "tacet" in [1-5] interrupts with data \(and [0-4] that found the '
          r'receiver empty\) of line 10 on hart 0, 0 spurious',
          r"ktest: uart_irq: PASS"],
         variant="aia", bootargs="test=uart_irq ipi=imsic", icount=True,
         console_input=(r'ktest: type "tacet"', "tacet")),
    case("kernel-exception-panics",
         [r"PANIC on hart 0: unexpected kernel exception",
          r"scause 0x2 \(illegal instruction\)",
          r"sepc   0x[0-9a-f]+ execute_illegal_instruction\+0x",
          r"backtrace:\n  0x[0-9a-f]+ execute_illegal_instruction\+0x[0-9a-f]+\n"
          r"  0x[0-9a-f]+ test_kernel_exception\+0x[0-9a-f]+\n  0x[0-9a-f]+ ktest_main\+",
          r"powering off after panic"],
         bootargs="test=kernel_exception", status=PANIC, forbid=(r"FAIL",)),
    case("interrupts-enabled-by-accident",
         [r"PANIC on hart 0: interrupt taken outside a handler's window: SIE was set by accident",
          r"sepc   0x[0-9a-f]+ test_enabled_interrupts\+0x"],
         bootargs="test=enabled_interrupts", status=PANIC, forbid=(r"FAIL",)),
    case("irq-nesting-guard",
         [r"irq_nest: large frames .*: 2000 handler runs, depth [2-7] \(limit 8\), [1-9]\d* "
          r"nestings refused, deepest interrupt-stack use \d+ of 16384 bytes",
          r"irq_nest: small frames .*: 2000 handler runs, depth 8 \(limit 8\), [1-9]\d* "
          r"nestings refused",
          r"ktest: irq_nest: PASS"],
         bootargs="test=irq_nest"),
    case("unknown-test", [r"ktest: no_such_thing: FAIL: no such test"],
         bootargs="test=no_such_thing", status=2, forbid=(r"PANIC",)),
]

# Malformed device trees that get past OpenSBI: the kernel must say what is wrong and power off
# (through the firmware, which exits 0: without a tree there is no test device).
CASES += [
    case("bad-dtb-name-offset",
         [r"tacet: bad device tree: property name offset outside the strings block",
          r"cannot boot without a valid device tree; powering off"],
         dtb="build/dts/bad/bad-nameoff.dtb", timeout=10),
    case("bad-dtb-memory-reg",
         [r"tacet: bad device tree: malformed reg in memory node: memory@80000000",
          r"cannot boot without a valid device tree; powering off"],
         dtb="build/dts/bad/bad-memreg.dtb", timeout=10),
    # The AIA's tree with an IMSIC whose IPI identity is one of the lines' (line 4's, 5): the
    # kernel refuses it and powers off, naming the counts.
    case("bad-dtb-imsic-ids",
         [r"tacet: bad device tree: the IMSIC's identities \(255, IPI 5\) do not fit 96 lines"],
         variant="aia", dtb="build/dts/bad-aia/bad-imsic-ids.dtb", timeout=10),
]

# Bad boot input: without an init to start the kernel must say why and power off with the
# failure status NO_INIT, not leave the harts idle for ever (tests/qemu/badmodules.py).
for _name, _initrd, _why in (
        ("missing", None, r"no boot module archive \(QEMU -initrd\)"),
        ("bad-magic", "bad-magic", r"not a module archive \(bad magic\)"),
        ("no-init", "no-init", r'no module "init" in the archive'),
        ("init-not-elf", "init-not-elf", r"not an ELF file"),
        ("init-truncated", "init-truncated", r"segment data outside the file")):
    CASES.append(case(f"module-archive-{_name}",
                      [rf"tacet: cannot start init: {_why}\n",
                       rf"tacet: no init to run; powering off \(exit status {NO_INIT}\)"],
                      smp=2, status=NO_INIT, timeout=10,
                      initrd=_initrd and f"build/bad-modules/{_initrd}.img"))

# User space: init starts the servers named in init.run= and powers off when all have ended.
CASES += [
    case("user-hello", [r"init: 4 harts, \d+ devices", r"hello from user space: 2 \+ 3 = 5",
                        r"hello: libc ok", r"init: server hello finished with status 0",
                        r"init: leak check: .*: PASS",
                        r"init: all 1 servers done; powering off"],
         bootargs="init.run=hello"),
    # Boot arguments longer than init's copy (TACET_BOOTINFO_BOOTARGS_MAX, 1,024 with the NUL):
    # the kernel says it cut them (init would otherwise take a cut init.run= for a whole one, as
    # the fault campaign once did at 256), and init still runs what it got.
    case("bootargs-too-long",
         [r"tacet: the boot arguments are longer than 1023 bytes: init gets the first 1023, "
          r"the rest is cut", r"init: server hello finished with status 0",
          r"init: all 1 servers done; powering off"],
         bootargs="init.run=hello pad=" + "x" * 1100),
    case("user-hello-every-hart",
         [r"(?s)(init: server hello finished with status 0.*){4}",
          r"init: leak check: .*: PASS", r"init: all 4 servers done; powering off"],
         bootargs="init.run=hello@0,hello@1,hello@2,hello@3"),
]


# More cases live in tests/qemu/cases_*.py, each defining CASES with case() (and spliced(),
# DEFAULT_DEVICES, DEFAULT_NEEDS, DEFAULT_LEASE and default_boot_input for a boot with the
# default boot arguments, CONTROLLERS).
for _path in sorted(glob.glob(os.path.join(os.path.dirname(__file__), "cases_*.py"))):
    _spec = importlib.util.spec_from_file_location(os.path.basename(_path)[:-3], _path)
    _mod = importlib.util.module_from_spec(_spec)
    _mod.case = case
    _mod.spliced = spliced
    _mod.DEFAULT_DEVICES, _mod.DEFAULT_NEEDS = DEFAULT_DEVICES, DEFAULT_NEEDS
    _mod.DEFAULT_LEASE, _mod.default_boot_input = DEFAULT_LEASE, default_boot_input
    _mod.CONTROLLERS = CONTROLLERS
    _spec.loader.exec_module(_mod)
    CASES += _mod.CASES

# The console server and shell, as `make qemu` boots them (the overlay's init.run=, with the
# devices the Makefile attaches): `random` answers at the first prompt, and differently the
# second time.
CASES += [
    case("shell",
         [r"uart: console ready", r"tacet> echo hello tacet\n+hello tacet\n",
          r"commands: help, echo TEXT, ps, harts, irqs, irqtop, irqhist LINE, metrics, mem, date, "
          r"random, net \[NAME\], ping ADDR \[COUNT\], crash, trace on\|off\|dump, poweroff",
          r"tacet> net\nnet0: 52:54:00:12:34:56, link up, mtu 1500\n  \d+ received, \d+ sent, 0 "
          r"dropped, \d+ interrupts \(\d+\.\d{3} a packet\)\n",
          r"\n  10 (idle|pending)\s+0\s+\d+\s+\d+",
          r"\d+ uart\s+0\s+100 (running|ready)", r"\d+ init\s+0\s+200 recv",
          r"\d+ init\s+0\s+90 recv",
          r"\d+ rng\s+0\s+110 recv", r"\d+ blk\s+0\s+110 recv", r"\d+ net\s+0\s+110 recv",
          r"\d+ ip\s+\d+\s+100 recv",
          r"net: net0: virtio-net 52:54:00:12:34:56, link up, 128 buffers a queue",
          r"tacet> random\n([0-9a-f]{32})\n(?s:.*)tacet> random\n(?!\1)[0-9a-f]{32}\n",
          r"pages: \d+ total, \d+ free",
          # the kernel's pages and other frames low, DMA frames high: a device writing past a
          # DMA frame goes upward, through DMA frames only (docs/drivers.md, "A wrong length")
          r"kernel and frames below 0x[0-9a-f]+, DMA frames from 0x[0-9a-f]+; the sides met 0 "
          r"times",
          # hart 0 took the console's interrupts: its external count (summed over the lines'
          # per-hart counts) is not 0; it has held the BKL (a longest hold, and what held it)
          # and its waits for the lock: a count, two percentiles and how many slept
          r"HART HWID   TIMER IRQS       IPIS  EXT IRQS   SYSCALLS  BKL HOLD MAX \(BY\)\s+"
          r"BKL WAIT MAX\s+WAITS\s+WAIT P50\s+WAIT P99\s+SLEPT\n"
          r"\s+0\s+\d+\s+\d+\s+\d+\s+[1-9]\d*\s+\d+\s+[1-9]\d*\s+"
          r"(idle|call \d+|irq \d+|exc \d+)\s+\d+\s+\d+\s+\d+\s+\d+\s+\d+\n",
          r"init: power off requested by uart"],
         qemu_args=DEFAULT_DEVICES, needs=DEFAULT_NEEDS,
         console_input=default_boot_input("random\rhelp\recho hello tacet\rps\rmem\rharts\r"
                                          "irqs\rrandom\rnet\rpoweroff\r"),
         check=low_below_dma, variants=CONTROLLERS),
]

# QEMU's monitor (monitor_input): at the shell's first prompt the monitor resets the machine
# (system_reset); the firmware, the kernel and init boot again from the images QEMU loaded and
# the shell prompts a second time, where poweroff ends the run.
CASES += [
    case("monitor-system-reset",
         [r"(?s)Tacet microkernel.*tacet> .*Tacet microkernel.*init: 4 harts.*tacet> poweroff",
          r"init: power off requested by uart"],
         bootargs="init.run=^uart=console:ns16550a",
         monitor_input=(r"tacet> ", "system_reset"),
         console_input=(r"(?s)tacet> .*tacet> ", "poweroff\r")),
]

# Other servers print through the console server once it is up (uart before hello on hart 0).
CASES += [
    case("console-over-ipc",
         [r"hello: writing through the console server", r"hello: libc ok",
          r"init: server hello finished with status 0", r"init: power off requested by uart"],
         bootargs="init.run=^%uart=console:ns16550a,hello/50",
         console_input=(r"init: server hello finished", "poweroff\r")),
    # Keys typed before the console is up are the shell's: uart_typeahead (the console server,
    # servers/tests/typeahead.c) waits before it sets the UART up until a key is in the UART's
    # receiver. (The console reset the FIFO as it started: 'cho typed ahead: unknown command'.)
    case("console-typeahead",
         [r"typeahead: a key is waiting in the UART",
          r"tacet> echo typed ahead\n+typed ahead\n",
          r"init: power off requested by uart_typeahead"],
         bootargs="init.run=^uart_typeahead=console:ns16550a",
         forbid=(r"PANIC", r"FAIL", r"unknown command"),
         console_input=(r"typeahead: the console is not up yet; type now", "echo typed ahead\r"
                        "poweroff\r")),
]
