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


CASES = [
    # irqtop: the table is redrawn every second by a notification timer until a key is pressed.
    case("irqtop",
         [r"irqtop: refresh 1, any key stops", r"irqtop: refresh 2, any key stops",
          r"RATE/s\n  10 ", r"irqtop: stopped", r"init: power off requested by uart"],
         bootargs="init.run=^uart=console:ns16550a",
         console_input=[(r"tacet> ", "irqtop\r"), (r"irqtop: refresh 2", "q"),
                        (r"irqtop: stopped", "poweroff\r")]),
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
         bootargs="init.run=^uart=console:ns16550a,storm@1:goldfish-rtc",
         console_input=(storm_over_console_up, "echo still answering\rpoweroff\r")),
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
         bootargs="init.run=storm_rebind@1:goldfish-rtc"),
    # The shell's irqs: the console's line bound and counted on hart 0; the RTC's line back to
    # unbound once its driver ended, with the 1000 unhandled interrupts and the one after, all
    # taken on hart 1, where its driver ran (a line follows its binder).
    case("irqs-command",
         [r"\n  10 (idle|pending)\s+0\s+\d+\s+\d+",
          r"  11 unbound\s+1\s+1001\s+0\s+1001 ", r"init: power off requested by uart"],
         bootargs="init.run=^uart=console:ns16550a,storm@1:goldfish-rtc",
         console_input=(storm_over_console_up, "irqs\rpoweroff\r")),
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
         qemu_args=("-device", "edu")),
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
         bootargs="init.run=irqbad:goldfish-rtc"),
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
         qemu_args=("-device", "edu,addr=1", "-device", "edu,addr=2")),
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
         + ("-device", "virtio-rng-device") * 2),
    # The same with A and B threaded, user-space servers on one hart: B's server, above A's,
    # preempts it; at A's priority it waits for A's server to block.
    case("irq-threaded-priority",
         [r"irq_prio: A on line 33, B on line 34, both servers on hart 1",
          r"irq_prio: lower: B's longest latency \d+, A's shortest server run \d+: B preempted A",
          r"irq_prio: equal: B's least latency \d+, A's longest server run \d+: B waited for A",
          r"init: power off requested by bench_irq_prio"],
         bootargs="init.run=pci:pci-host-ecam-generic+pci-mmio32+pci-intx,^bench_irq_prio@1/200",
         qemu_args=("-device", "edu,addr=1", "-device", "edu,addr=2"), icount=True),
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
         qemu_args=("-device", "edu"), icount=True, timeout=120),
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
         bootargs="test=irq_fast_storm", qemu_args=("-device", "edu"), icount=True),
]
