"""cases_irq.py: the interrupt layer seen from user space (kernel-only cases are in cases.py)."""

import re


# The storm cases type into the shell once the storm is over. The storm server starts its storm
# only once the console's prompt is out (storm_main.c): the console's text and the lines of the
# kernel's debug output (the storm's, init's, the kernel's) are two printers on one UART, and
# text of both at once comes mixed byte by byte. The storm is over when init and the kernel
# have both said so, whole lines, in either order; nothing else prints until the shell answers.
STORM_OVER = [r"init: server storm finished with status \d+\r?\n",
              r"tacet: process storm ended \(status \d+\)\r?\n"]


def storm_over_console_up(out):
    prompt = out.find("tacet> ")
    return prompt >= 0 and all(re.search(p, out[prompt:]) for p in STORM_OVER)


# The edu driver (1000 raised interrupts and a factorial's completion) has ended, and init, the
# kernel and the PCI server (its release of the device, then, 100 ms later, of its DMA
# quarantine) have said so (whole lines), so the shell's answers come alone.
EDU_OVER = [r"edu 0: factorial[^\n]*\n", r"init: server edu finished with status 0\r?\n",
            r"tacet: process edu ended \(status 0\)\r?\n",
            r"pci: \S+ released \(its driver ended\)[^\n]*\n",
            r"pci: \S+ [^\n]*DMA quarantine[^\n]*\n"]


def edu_over_console_up(out):
    prompt = out.find("tacet> ")
    return prompt >= 0 and all(re.search(p, out[prompt:]) for p in EDU_OVER)


HIST_ROW = re.compile(r"^ *(\d+) -> (\d+) *: (\d+) +\|[* ]{40}\|\r?$", re.M)
HIST_HEAD = re.compile(r"^(top half|wake-up latency|server time) \([^)]*\): (\d+) values"
                       r"(?:, p50 <= (\d+), p99 <= (\d+), max (\d+))?\r?$", re.M)


def hist_problems(name, block):
    """One irqhist histogram: its rows add up to its values; p50 <= p99 <= max; the maximum in
    the last row; p99 the bound of the row that holds the nearest-rank 99th value."""
    head = HIST_HEAD.search(block)
    if not head:
        return None, [f"irqhist printed no {name} histogram"]
    n = int(head.group(2))
    nxt = HIST_HEAD.search(block, head.end())
    rows = [tuple(map(int, r)) for r in HIST_ROW.findall(block[head.end():nxt.start()
                                                              if nxt else len(block)])]
    if not n:
        return 0, [] if not rows else [f"{name}: rows for no values"]
    p50, p99, top = map(int, head.group(3, 4, 5))
    problems = []
    if sum(r[2] for r in rows) != n:
        problems.append(f"{name}: the rows add up to {sum(r[2] for r in rows)}, not {n}")
    if not p50 <= p99 <= top:
        problems.append(f"{name}: not p50 {p50} <= p99 {p99} <= max {top}")
    if not rows or not rows[-1][0] <= top <= rows[-1][1]:
        problems.append(f"{name}: the maximum {top} is not in the last row")
    rank, seen = (n * 99 + 99) // 100, 0
    for low, high, count in rows:
        seen += count
        if seen >= rank:
            if p99 != min(high, top):
                problems.append(f"{name}: p99 {p99}, but the 99th percentile's row ends at {high}")
            break
    return n, problems


def close(a, b, unit):
    """The same time read twice: equal in instructions; in ns within 1% (the rate against the
    timebase is measured anew at each read)."""
    return a == b if unit == "instructions" else abs(a - b) <= max(a, b) // 100 + 1


def irq_hist_consistent(unit):
    """irqs, then irqhist of the edu line and of the console's: in each irqhist the top-half
    histogram adds up to the line's count, each histogram to its values, p50 <= p99 <= max,
    p99 is its row's bound; the quiet edu line's count, p50, p99 and maxima the same in irqs;
    the times said in unit."""
    def check(out):
        problems = []
        line = re.search(r"edu 0: id \S+, (?:irq|msi line) (\d+) on hart", out)
        irqs = out.find("\n IRQ STATE ")
        edu = out.find("tacet> irqhist " + (line.group(1) if line else "?") + "\n")
        if not line or irqs < 0 or edu < 0:
            return ["no edu line, irqs or irqhist output to check"]
        irq = line.group(1)
        table = out[irqs:edu]
        for what, text in (("irqs", table), ("irqhist", out[edu:])):
            if not re.search(rf"^times in {unit}: ", text, re.M):
                problems.append(f"{what} does not say its times are in {unit}")
        counted = {}
        for hist_line in (irq, "10"):
            at = re.search(rf"tacet> irqhist {hist_line}\r?\n", out)
            block = out[at.start():out.find("tacet> ", at.end())] if at else ""
            header = re.search(rf"irq {hist_line}: [\w ()]+, (\d+) interrupts since boot", block)
            if not header:
                problems.append(f"no irqhist {hist_line}")
                continue
            n = int(header.group(1))
            got = {}
            for name in ("top half", "wake-up latency", "server time"):
                got[name], more = hist_problems(name, block)
                problems += [f"line {hist_line}: {m}" for m in more]
            if got["top half"] != n:
                problems.append(f"line {hist_line}: the top-half histogram holds "
                                f"{got['top half']} values of {n} interrupts")
            if not (got["server time"] or 0) <= (got["wake-up latency"] or 0) <= n:
                problems.append(f"line {hist_line}: {got['wake-up latency']} wake-ups and "
                                f"{got['server time']} acks timed of {n} interrupts")
            counted[hist_line] = (n, [tuple(map(int, m.group(3, 4, 5)))
                                      for m in HIST_HEAD.finditer(block) if m.group(3)])
        count = re.search(rf"\n *{irq} \w+ +\d+ +(\d+)", table)
        times = re.search(rf"\n *{irq}((?: +\d+){{9}})\r?\n", table)
        if not count or not times or irq not in counted:
            return problems + [f"no irqs row for line {irq}"]
        n, heads = counted[irq]
        if n != int(count.group(1)) or n < 1001:
            problems.append(f"irqhist counts {n} interrupts, irqs {count.group(1)}, the driver "
                            "raised 1001")
        cols = list(map(int, times.group(1).split()))
        for i, name in enumerate(("TOP", "WAKE", "SERV")):
            if not cols[3 * i] <= cols[3 * i + 1] <= cols[3 * i + 2]:
                problems.append(f"irqs: {name} p50 {cols[3 * i]}, p99 {cols[3 * i + 1]}, max "
                                f"{cols[3 * i + 2]}")
        if not heads or not all(close(a, b, unit) for h, i in zip(heads, (0, 3, 6))
                                for a, b in zip(h, cols[i:i + 3])):
            problems.append(f"irqs says {cols}, irqhist {heads}")
        return problems
    return check


def irqtop_sorted(out):
    """irqtop's last table by line lists the lines in order; its last by the worst wake-up
    latency, their WAKE MAX (the times table's 7th column) from the highest down."""
    problems = []
    for order in ("line", "worst wake-up latency"):
        at = out.rfind(f", by {order}; s sorts")
        times = out.find("\n IRQ  TOP p50", at)
        end = out.find("irqtop:", times)
        if at < 0 or times < 0:
            problems.append(f"no irqtop table by {order}")
            continue
        rows = re.findall(r"\n *(\d+)((?: +\d+){9})(?=\r?\n)", out[times:end])
        lines = [int(r[0]) for r in rows]
        wake = [int(r[1].split()[5]) for r in rows]
        if len(rows) < 2:
            problems.append(f"irqtop by {order} shows {len(rows)} lines, not the console's and "
                            "the edu's")
        elif order == "line" and lines != sorted(lines):
            problems.append(f"irqtop by line lists {lines}")
        elif order != "line" and wake != sorted(wake, reverse=True):
            problems.append(f"irqtop by the worst wake-up latency lists lines {lines} with WAKE "
                            f"MAX {wake}")
    return problems


EDU_RUN = "init.run=^%uart=console:ns16550a,pci:pci-host-ecam-generic+pci-mmio32+pci-intx,edu@1"
# the edu line: INTx line 33 on the PLIC's machine, the first message-signalled line on the AIA's
HIST_INPUT = {v: f"irqs\rirqhist {line}\rirqhist 10\rirqhist 5\rirqhist 5000\rirqhist\rpoweroff\r"
              for v, line in (("aclint", 33), ("aia", 97))}
HIST_EXPECT = [r"irqhist: line 5 is not bound and has taken no interrupt: no histogram",
               r"irqhist: the interrupt controller has no line 5000",
               r"usage: irqhist LINE", r"init: power off requested by uart"]

CASES = [
    # The interrupt histograms: the edu driver takes 1000 raised interrupts and a
    # factorial's completion on line 33; then irqs and irqhist 33 agree on the line's count,
    # which the top-half histogram adds up to, and on p50 <= p99 <= max (irq_hist_consistent);
    # irqhist of a line nobody bound, of one the controller lacks, and without a line, say so.
    # Under -icount shift=0 with cycles=instructions the times are instructions... (the
    # deterministic machine; it types, so it idles with sleep=on)
    case("irq-hist-instructions",
         [r"times in instructions: the cycle counter counts them", *HIST_EXPECT],
         smp=2, bootargs=EDU_RUN + " cycles=instructions",
         qemu_args=("-device", "edu"), icount=True,
         console_input=(edu_over_console_up, HIST_INPUT),
         check=irq_hist_consistent("instructions"), timeout=60, variants=CONTROLLERS),
    # ...and without, ns at the rate the cycle counter ran against the timebase.
    case("irq-hist-ns",
         [r"times in ns: the cycle counter ran at \d+\.\d{3} a ns since boot against the "
          r"timebase \(10000000 Hz, device tree\)", *HIST_EXPECT],
         smp=2, bootargs=EDU_RUN, qemu_args=("-device", "edu"),
         console_input=(edu_over_console_up, HIST_INPUT), check=irq_hist_consistent("ns"),
         timeout=60, variants=CONTROLLERS),
    # irqtop: the table is redrawn every second by a notification timer until a key is pressed;
    # s sorts it by the worst wake-up latency (the console's line and the edu's, after the edu
    # driver's interrupts), and back.
    case("irqtop",
         [r"irqtop: refresh 1, by line; s sorts by worst wake-up latency, any other key stops",
          r"irqtop: refresh 2, by line", r"RATE/s\n  10 ",
          r"irqtop: refresh \d+, by worst wake-up latency; s sorts by line",
          r"irqtop: stopped", r"init: power off requested by uart"],
         smp=2, bootargs=EDU_RUN, qemu_args=("-device", "edu"),
         console_input=[(edu_over_console_up, "irqtop\r"), (r"irqtop: refresh 2", "s"),
                        (r"by worst wake-up latency; s sorts by line(.*\n){11}", "q"),
                        (r"irqtop: stopped", "poweroff\r")],
         check=irqtop_sorted, variants=CONTROLLERS),
    # A device whose interrupt stays asserted, and a driver that does not handle it: the kernel
    # disables the line after the limit and says so; irq_enable brings it back; the shell on
    # the console's own line answers throughout.
    case("irq-unhandled-disabled",
         [r"tacet: irq 11 disabled: nobody handled it in a row of interrupts",
          r"storm: unhandled: line disabled after 1000 interrupts: PASS",
          r"storm: unhandled: the driver was told: 2 acks returned EDISABLED: PASS",
          r"storm: unhandled: re-enabled: PASS",
          r"echo still answering\n+still answering\n",
          r"init: power off requested by uart"],
         bootargs="init.run=^%uart=console:ns16550a,storm@1:goldfish-rtc",
         console_input=(storm_over_console_up, "echo still answering\rpoweroff\r"),
         variants=CONTROLLERS),
    # Detection's history survives unbind and bind: the driver of the stuck RTC line (nobody
    # handles it) lets the line go and takes it again twice on the way, once after an ack and
    # once owing one; the kernel still disables it at the 1000th interrupt in a row, as without
    # the rebinds, and bound again it stays disabled until irq_enable.
    case("irq-unhandled-rebind",
         [r"storm: rebinding after 300 interrupts \(acknowledged\): done",
          r"storm: rebinding after 600 interrupts \(the last not acknowledged\): done",
          r"tacet: irq 11 disabled: nobody handled it in a row of interrupts",
          r"storm: rebind: line disabled after 1000 interrupts: PASS",
          r"storm: rebinding after 1000 interrupts \(disabled\): done",
          r"storm: rebind: bound again, the line is still disabled: PASS",
          r"storm: rebind: the driver was told: 2 acks returned EDISABLED: PASS",
          r"storm: rebind: re-enabled: PASS",
          r"init: all 1 servers done; powering off"],
         bootargs="init.run=storm_rebind@1:goldfish-rtc", variants=CONTROLLERS),
    # The shell's irqs: the console's line bound and counted on hart 0; the RTC's line back to
    # unbound once its driver ended, with the 1000 unhandled interrupts and, on the PLIC, the
    # one it latched before the driver cleared the device (the AIA's unmask pends only what the
    # source asserts then: none), all taken on hart 1, where its driver ran (a line follows
    # its binder).
    case("irqs-command",
         [r"\n  10 (idle|pending)\s+0\s+\d+\s+\d+",
          r"(?s)irq: plic, .*  11 unbound\s+1\s+1001\s+0\s+1001 "
          r"|irq: aia: .*  11 unbound\s+1\s+1000\s+0\s+1000 ",
          r"init: power off requested by uart"],
         bootargs="init.run=^%uart=console:ns16550a,storm@1:goldfish-rtc",
         console_input=(storm_over_console_up, "irqs\rpoweroff\r"), variants=CONTROLLERS),
    # The PCI host bridge's configuration space through a derived part of its ECAM frame;
    # QEMU's edu device shows up beside the host bridge.
    case("pci-bus0",
         [r"pci: 00:00.0 vendor 1b36 device 0008 class 060000",
          r"pci: 00:0[1-9a-f].0 vendor 1234 device 11e8",
          r"pcitest: given 6 devices: pci-host-ecam-generic tacet,pci-mmio32 "
          r"tacet,pci-intx\(irq 32\) tacet,pci-intx\(irq 33\) tacet,pci-intx\(irq 34\) "
          r"tacet,pci-intx\(irq 35\)",
          r"pcitest: 2 devices on bus 0: PASS", r"init: leak check: .*: PASS",
          r"init: all 1 servers done; powering off"],
         bootargs="init.run=pcitest:pci-host-ecam-generic+pci-mmio32+pci-intx",
         qemu_args=("-device", "edu"), variants=CONTROLLERS),
    # Bad input to the interrupt system calls: each refused with its error code (no line
    # capability, wrong type, missing right, bad badge or flag, no such hart, not bound, bound
    # twice; ack_wait on a notification it cannot wait on), and the line still delivers
    # interrupts afterwards, the second taken by the ack_wait that unmasks the line, with
    # nothing lost or counted as unhandled.
    case("irq-bad-arguments",
         [r"irqbad: bind without a capability \(empty slot\) -> empty capability slot: PASS",
          r"irqbad: ack a line not bound -> invalid argument: PASS",
          r"irqbad: ack_wait a line not bound -> invalid argument: PASS",
          r"irqbad: ack_wait on a notification without the read right -> capability lacks a "
          r"needed right: PASS",
          r"irqbad: affinity to hart 99 -> invalid argument: PASS",
          r"irqbad: bind again, not shared -> object busy: PASS",
          r"irqbad: the line still works \(two interrupts, the second taken by ack_wait; line "
          r"count \+2, unhandled \+0\): PASS",
          r"irqbad: the line's number \(CAP_INFO\) is the device's -> 0: PASS",
          r"irqbad: 31 checks, 0 failed",
          r"init: all 1 servers done; powering off"],
         bootargs="init.run=irqbad:goldfish-rtc", variants=CONTROLLERS),
    # The message-signalled lines' calls with bad input (msibad, holding the PCI window with
    # its RELEASE right, the bus server's authority): each refused with its error code (no
    # capability, wrong type, the window without RELEASE, a RAM frame, no such hart, a full
    # slot; a shared bind; a line freed, then bound, moved or acknowledged); a lent line's
    # address is its hart's file (a page of the IMSIC's at the hart's index in the tree, which
    # OpenSBI's choice of boot hart decides) and moves with it; the pool of 64 runs out with ENOMEM and,
    # every line back, lends its first line again. On the PLIC's machine: ENODEV.
    case("irq-msi-bad-arguments",
         [r"msibad: lend with the window without RELEASE -> capability lacks a needed right: "
          r"PASS",
          r"msibad: lend with a RAM frame -> capability lacks a needed right: PASS",
          {"aclint": r"msibad: lend without an MSI controller -> no such device on this "
                     r"machine: PASS",
           "aia": r"msibad: line 97: write 0x62 to 0x2800[0-3]000\n"},
          *[{"aclint": r"msibad: 5 checks, 0 failed", "aia": e} for e in (
              r"msibad: lend on hart 99 -> invalid argument: PASS",
              r"msibad: bind it shared -> invalid argument: PASS",
              r"msibad: the new address is another page of the IMSIC's -> 0: PASS",
              r"msibad: the address is hart 1's file again -> 0: PASS",
              r"msibad: free it \(bound: its binder leaves\) -> 0: PASS",
              r"msibad: free it twice -> invalid argument: PASS",
              r"msibad: bind it, freed -> invalid argument: PASS",
              r"msibad: lend once the pool is empty -> out of memory \(budget\): PASS",
              r"msibad: 64 lines lent before the pool ran out",
              r"msibad: the first line is lent again -> 0: PASS",
              r"msibad: 25 checks, 0 failed")],
          r"init: all 1 servers done; powering off"],
         bootargs="init.run=msibad:pci-mmio32", variants=CONTROLLERS),
    # A message-signalled line's freeing revokes its capability's copies: msirevoke lends a
    # line, sends a copy to msistale (another process), which binds it; the line freed, each
    # call through the copy (bind, ack, move) is refused, and still once the same line is lent
    # again, whose new capability binds it. On the PLIC's machine nothing is lent.
    case("irq-msi-free-revokes",
         [{"aclint": r"msirevoke: no MSI controller: nothing to revoke",
           "aia": r"msirevoke: line 97 lent"},
          *[{"aclint": r"msirevoke: 0 checks, 0 failed", "aia": e} for e in (
              r"msirevoke: send msistale a copy; it binds the line -> 0: PASS",
              r"msirevoke: free the line \(msistale bound\) -> 0: PASS",
              r"msirevoke: bind through the copy, freed -> invalid argument: PASS",
              r"msirevoke: ack through the copy, freed -> invalid argument: PASS",
              r"msirevoke: move through the copy, freed -> invalid argument: PASS",
              r"msirevoke: the same line lent again -> 0: PASS",
              r"msirevoke: bind through the copy, lent again -> invalid argument: PASS",
              r"msirevoke: ack through the copy, lent again -> invalid argument: PASS",
              r"msirevoke: move through the copy, lent again -> invalid argument: PASS",
              r"msirevoke: bind through the new lending's -> 0: PASS",
              r"msirevoke: 15 checks, 0 failed")],
          r"init: all 2 servers done; powering off"],
         bootargs="init.run=msirevoke:pci-mmio32,msistale", variants=CONTROLLERS),
    # The fast path's escape with two PLIC lines (two edu devices, the kernel's own handlers):
    # line A's handler raises line B and calls irq_enable_in_hardirq(): B nests into A, 100 of
    # 100 times, at depth 2; with 9 KiB of the interrupt stack in use the call is refused (and
    # counted) every time, and B runs after A instead.
    case("irq-nest-plic",
         [r"irq_nest_plic: line 33's handler opened the window 100 times; line 34 nested into "
          r"it 100 times \(depth 2\)",
          r"irq_nest_plic: with 9216 bytes of the interrupt stack in use the window was refused "
          r"100 times; line 34 nested 0 times, ran 100 times",
          r"ktest: irq_nest_plic: PASS"],
         bootargs="test=irq_nest_plic",
         qemu_args=("-device", "edu,addr=1", "-device", "edu,addr=2"), variants=CONTROLLERS),
    # The masked-vs-threaded experiment (docs/interrupts.md, "Masked, windowed or threaded";
    # make bench measures it, bench/masked-threaded checks its relations): device A's handler
    # runs ~20,000 instructions and raises device B as it starts. In-kernel, masked, B waits
    # for the whole of A; with A's window open B nests into it; then 8 lines (4 edus on the 4
    # INTx lines, the UART, the RTC, two virtio-rngs) nest 8 deep, the 8th refused the window.
    case("irq-masked-window",
         [r"irq_masked: A on line 33, B on line 34",
          r"irq_masked: masked: B's least latency \d+, A's longest handler \d+: B waited for A",
          r"irq_masked: window: B's longest latency \d+, A's shortest handler \d+: B nested "
          r"into A",
          r"irq_nest8: 8 lines, each handler opening the window: nested 8 deep \(limit 8\), 1 "
          r"refused, deepest interrupt-stack use \d+ of 16384 bytes",
          r"ktest: irq_masked: PASS"],
         bootargs="test=irq_masked", icount=True,
         qemu_args=tuple(a for slot in range(1, 5) for a in ("-device", f"edu,addr={slot}"))
         + ("-device", "virtio-rng-device") * 2, variants=CONTROLLERS),
    # The same with A and B threaded, user-space servers on one hart: B's server, above A's,
    # preempts it; at A's priority it waits for A's server to block.
    case("irq-threaded-priority",
         [r"irq_prio: A on line 33, B on line 34, both servers on hart 1",
          r"irq_prio: lower: B's longest latency \d+, A's shortest server run \d+: B preempted A",
          r"irq_prio: equal: B's least latency \d+, A's longest server run \d+: B waited for A",
          r"init: power off requested by bench_irq_prio"],
         bootargs="init.run=pci:pci-host-ecam-generic+pci-mmio32+pci-intx,^bench_irq_prio@1/200",
         qemu_args=("-device", "edu,addr=1", "-device", "edu,addr=2"), icount=True,
         variants=CONTROLLERS),
    # A busy line is not a storm: the edu driver raises each interrupt as soon as it has
    # handled the last, 100,000 times, with tacet_irq_ack_wait (one kernel entry each); the
    # line is never disabled and the kernel counts exactly 100,000 (under -icount: the same run
    # every time).
    case("irq-busy-100k",
         [r"edu 0: raised 100, handled 100 \(0 for other devices\): PASS",
          r"edu 0: busy: 100000 interrupts handled back to back, 100000 counted, 99999 stamped; "
          r"line on, disabled 0 times: PASS",
          r"init: power off requested by edu_busy"],
         bootargs="init.run=pci:pci-host-ecam-generic+pci-mmio32+pci-intx,^edu_busy@0",
         qemu_args=("-device", "edu"), icount=True, timeout=120, variants=CONTROLLERS),
    # A storm by rate, in a fast handler (in the top half, where it could livelock the hart):
    # the handler raises the next interrupt as it handles one; more than 5000 within 100 ms
    # disable the line (under -icount the 5001st every run), the top half prints nothing, the
    # report comes after, once; irq_enable brings the line back.
    case("irq-fast-storm",
         [r"irq_fast_storm: line \d+ disabled after 5001 interrupts in its fast handler",
          r"tacet: irq \d+ disabled: an interrupt storm in its fast handler; irq_enable turns it "
          r"back on\n(?![\s\S]*an interrupt storm)",
          r"irq_fast_storm: re-enabled, one interrupt handled: yes",
          r"ktest: irq_fast_storm: PASS"],
         bootargs="test=irq_fast_storm", qemu_args=("-device", "edu"), icount=True,
         variants=CONTROLLERS),
]
