"""benchmarks.py: every benchmark, declared once: how it boots, the figures it reports, each
figure's budget and whether the charts show it. tests/bench/bench.py runs them and checks the
budgets, tests/bench/figures.py writes their table into docs/benchmarks.md, tests/bench/plots.py
draws the plotted ones, tests/run.py checks the charts name them. Adding a benchmark is one
entry here (docs/benchmarks.md, "Adding a benchmark"); no other file lists figures.

A benchmark is bench(boot, append, figures, extra, **options):
  boot      its name: its log is build/bench/BOOT.log, `bench.py -k` matches it
  append    the boot arguments (-append): the servers init starts (init.run=, servers/bench/
            module.mk), or an in-kernel benchmark of the test kernel (test=NAME)
  figures   what it reports, each a fig() below
  extra     more QEMU arguments (devices)
  options   "mem", the RAM (bench.MEM unless given); "smp", the harts (bench.SMP unless given);
            "variant", the machine (tests/machine.py's MACHINES; the PLIC's unless given);
            "stressors", the stressors the boot runs, as (name, unit, hart): each must print
            its completion line with a count above 0, or the benchmark fails; "holds_hart", a
            pattern whose group 1 is the hart the plugin's hold figure is taken on; "split",
            {hart: component}: the boot loads the split plugin (tools/qemu-plugins/hart_split.c)
            and each figure is also printed per component (bench.py's SPLIT_PLUGIN)
A figure is fig(name, budget, ...):
  name      the name results.json and the table record, and its BENCH line prints
  budget    the median's and the maximum's budget, in instructions (bytes for a name ending in
            _bytes): make test fails a run over it. budget_max= instead: the maximum's only (a
            tail figure); both: the median's and the maximum's apart; neither: printed, never
            budgeted (the kernel's own hold figures, named ..._global, only)
  printed   the name its BENCH line prints when that is not name (one server reporting for
            several boots), or HOLDS: the plugin's longest BKL hold
  latency   a label: the latency chart (build/bench/latency.svg, docs/latency.svg) shows it
  histogram the histograms chart shows it
Budgets sit about 5% above what a figure measures; a change that makes a path faster lowers its
budget in the same commit, so the gain is kept.
"""
import os

PCI = "pci:pci-host-ecam-generic+pci-mmio32+pci-intx"
# Two virtio-net devices on QEMU hub 0, each driven by an instance of servers/net. QEMU sends
# in timer mode with a 1 ns timer: the device's transmit then runs in the vCPU thread at a point
# the instruction count fixes (a virtual-clock timer), where the default bottom half runs on
# QEMU's I/O thread whenever the host schedules it and the figures vary from run to run.
NET_DEV = "virtio-net-device,netdev={},tx=timer,x-txtimer=1"
NET_HUB = ["-netdev", "hubport,id=h0,hubid=0", "-device", NET_DEV.format("h0"),
           "-netdev", "hubport,id=h1,hubid=0", "-device", NET_DEV.format("h1")]
NET_PAIR = "net=net0:virtio-net#0,net=net1:virtio-net#1"
# The same two NICs as virtio-net-pci functions (slots 2 and 3) under the pci server: each
# instance of servers/net claims the first one free (virtio_probe), so which is net0 is the
# boot's order, the same every run. ioeventfd=off: QEMU 7.2's virtio-pci otherwise takes a
# queue's notification through an event its I/O thread handles, even under TCG, which an idle
# machine under -icount sleep=off never sees (the boot stalls), and whose timing is the host's.
NET_DEV_PCI = "virtio-net-pci,netdev={},addr={},tx=timer,x-txtimer=1,ioeventfd=off,romfile="
NET_HUB_PCI = ["-netdev", "hubport,id=h0,hubid=0", "-device", NET_DEV_PCI.format("h0", 2),
               "-netdev", "hubport,id=h1,hubid=0", "-device", NET_DEV_PCI.format("h1", 3)]
NET_PAIR_PCI = f"{PCI},net=net0/110,net=net1/110"
# The UDP echo benchmark's servers, a hart each: net0 (the echo side's driver), ip_static
# publishing "ip", echo, net1 (the client's driver), bench_udp. UDP_SPLIT names each hart's
# component for the per-component split (hart_split.so).
UDP_ECHO_RUN = ("net=net0@0/110:virtio-net#0,ip_static=ip@1,echo@2,net=net1@3/110:virtio-net#1,"
                "^bench_udp@4")
UDP_SPLIT = {0: "net0", 1: "ip", 2: "echo", 3: "net1", 4: "client"}
EDU = ["-device", "edu"]
# irq_masked's devices: 4 edus, one on each of virt's PCI INTx lines, and two virtio-rngs.
MASKED_DEVICES = [a for slot in range(1, 5) for a in ("-device", f"edu,addr={slot}")] + [
    "-device", "virtio-rng-device"] * 2

# The longest BKL hold counted per hart (docs/benchmarks.md, "BKL holds per hart"): a figure
# printed as HOLDS is the QEMU plugin's (tools/qemu-plugins/bkl_holds.c), and its boot runs the
# test kernel with the plugin; the kernel's own figure beside it is recorded with GLOBAL_SUFFIX,
# printed but not budgeted.
HOLDS = "<bkl_holds plugin>"
GLOBAL_SUFFIX = "_global"


class Figure:
    """One figure a benchmark reports (see the module's docstring)."""

    def __init__(self, name, budget=None, budget_max=None, printed=None, latency=None,
                 histogram=False):
        self.name, self.printed = name, printed or name
        # budget: the median's and the maximum's; with budget_max too, the maximum's is that
        self.budget = {"median": budget, "max": budget if budget_max is None else budget_max} \
            if budget is not None else ({"max": budget_max} if budget_max is not None else None)
        self.latency, self.histogram = latency, histogram


fig = Figure


def bench(boot, append, figures, extra=(), **options):
    """A benchmark: (boot, append, figures, extra, options), as bench.py reads it."""
    return (boot, append, list(figures), list(extra), options)


# The scaling curves (a path's cost must not grow with what the machine holds;
# servers/bench/scale.h): PREFIX_N is the figure at N (the points the server measures, in its own
# list), with its budget. Where the goal is flat ("flat"), every point's median must be within
# SCALE_FLAT of the first one's; the timer's arming, where a tree is the goal, may rise from one
# point to the next by at most TIMER_LOG_STEP instructions per doubling of the armed timers. Why
# that bound is honest: arming a timer already armed removes
# it from its hart's tree and inserts it again, each walking at most the tree's height, which
# an AVL tree keeps under 1.44 log2(n + 2) levels; a level costs each walk about 10 to 20
# instructions (a compare and a step down; on the way back up a height update and a balance
# check), so 2 x 1.44 x ~20 = ~58 a doubling at worst, 64 with room. The sorted list the tree
# replaced paid ~9 instructions per armed timer (386 at 1, 9,380 at 1,000): at 1,000 it is
# over the bound by fourteen times, at 64 already by five. --check-scaling checks both
# (bench.scaling_problems); make test's bench/scaling. The scaling chart draws every curve.
SCALE_FLAT = 0.03
TIMER_LOG_STEP = 64
SCALING = {
    "scale_irq": {"points": (1, 4, 16, 64), "budgets": (311, 311, 311, 311), "flat": True,
                  "title": "device IRQ -> its driver, same hart",
                  "x": "servers (driver + asleep; each bound to a line of its own, 11 at most)",
                  "goal": "IRQ flat"},
    "scale_ipc": {"points": (1, 4, 16, 64), "budgets": (507, 507, 507, 507), "flat": True,
                  "title": "IPC call+reply, same hart",
                  "x": "server processes (one called, the rest in RECV)", "goal": "IPC flat"},
    "scale_timer": {"points": (1, 4, 16, 64, 256, 1000),
                    "budgets": (464, 573, 657, 741, 825, 868), "flat": False,
                    "title": "arming a notification timer",
                    "x": "timers armed on the hart (the armed one the latest)",
                    "goal": f"timer arm at most {TIMER_LOG_STEP} per doubling"},
}


def scale_figures(prefix):
    """A scaling curve's figures, each at its point with its budget."""
    curve = SCALING[prefix]
    return [fig(f"{prefix}_{n}", budget) for n, budget in zip(curve["points"], curve["budgets"])]


# The benchmarks `make bench` runs: the servers of servers/bench/ (their harts and priorities in
# init.run=), or an in-kernel benchmark (kernel/test/ktest_edu.c, in the test kernel).
BENCHMARKS = [
    bench("null_syscall", "init.run=bench_null@1",
          [fig("null_syscall", 99, latency="null system call", histogram=True)]),
    bench("ipc_call_reply_same_hart", "init.run=bench_ipc_srv=bench.ipc@1,bench_ipc_same@1",
          [fig("ipc_call_reply_same_hart", 496, latency="IPC call+reply", histogram=True)]),
    bench("ipc_call_reply_cross_hart", "init.run=bench_ipc_srv=bench.ipc@1,bench_ipc_cross@0",
          [fig("ipc_call_reply_cross_hart", 1445, histogram=True)]),
    bench("notify_wake_same_hart", "init.run=bench_ntfn_same@1/200",
          [fig("notify_wake_same_hart", 237, latency="signal -> waiting thread",
               histogram=True)]),
    bench("notify_wake_cross_hart", "init.run=bench_ntfn_cross@1/200",
          [fig("notify_wake_cross_hart", 894, histogram=True)]),
    bench("irq_same_hart", f"init.run={PCI},^bench_irq_same@1/200",
          [fig("irq_raise_to_trap", 6), fig("irq_top_half", 147, histogram=True),
           fig("irq_raise_to_server_same_hart", 277, latency="device IRQ -> user driver",
               histogram=True)], EDU),
    bench("irq_cross_hart", f"init.run={PCI},^bench_irq_cross@1/200",
          [fig("irq_raise_to_server_cross_hart", 921, histogram=True)], EDU),
    # The same two to a driver waiting as a service loop does (a receive as the notification's
    # bound thread: most drivers' way), servers/bench/irq_svc_*.c; bench.py's SERVICE_LOOP
    # checks them against the two above.
    bench("irq_service_same_hart", f"init.run={PCI},^bench_irq_svc_same@1/200",
          [fig("irq_raise_to_service_same_hart", 320)], EDU),
    bench("irq_service_cross_hart", f"init.run={PCI},^bench_irq_svc_cross@1/200",
          [fig("irq_raise_to_service_cross_hart", 950)], EDU),
    bench("irq_server_cycle", f"init.run={PCI},^bench_irq_cycle@1/200",
          [fig("irq_server_cycle", 610, histogram=True)], EDU),
    bench("irq_service_cycle", f"init.run={PCI},^bench_irq_svc_cycle@1/200",
          [fig("irq_service_cycle", 830)], EDU),
    bench("irq_busy_cycle", f"init.run={PCI},^bench_irq_busy@1/200",
          [fig("irq_busy_cycle", 461, histogram=True)], EDU),
    bench("irq_fast_handler", "test=irq_fast_latency",
          [fig("irq_raise_to_fast_handler", 70, latency="device IRQ -> kernel handler",
               histogram=True)], EDU),
    # The masked-vs-threaded experiment (docs/interrupts.md, "Masked, windowed or threaded"):
    # device A's handler runs ~20,000 instructions and raises device B as it starts; B's raise
    # to its handler when A's in-kernel handler runs masked (case 1) or opens the window
    # (case 2), and the interrupt stack 8 nested lines use (kernel/test/ktest_masked.c: 4 edus
    # on virt's 4 INTx lines, the UART, the RTC, two virtio-rngs) ...
    bench("irq_masked", "test=irq_masked",
          [fig("irq_a_handler_length", 21000), fig("irq_masked_b_latency", 21300),
           fig("irq_window_b_latency", 223), fig("irq_nest8_stack_bytes", 3700)],
          MASKED_DEVICES),
    # ... and B's raise to its server when A's is a server of lower priority than B's (case 3)
    # or of the same (case 4), both on hart 1 (servers/bench/irq_prio.c).
    bench("irq_threaded", f"init.run={PCI},^bench_irq_prio@1/200",
          [fig("irq_threaded_lower_b_latency", 310), fig("irq_a_server_length", 21400),
           fig("irq_threaded_equal_b_latency", 22700)],
          ["-device", "edu,addr=1", "-device", "edu,addr=2"]),
    # A 256-page FRAME_NEW and its CAP_DELETE, the MAP and UNMAP of such a frame, the end of a
    # process of 1,088 page tables (servers/bench/frame.c), and the longest BKL hold on their hart
    # meanwhile (at most 5,000 instructions: kernel/core/bkl.h): the plugin's, and the kernel's own
    # beside it (the other hart waits: no turn of QEMU's can end inside a hold, and the two agree).
    # The test kernel, for its hold markers.
    # frame_delete_256 pays the reaper's point after its last object (about 60: the call after it
    # starts a hold of its own) and the span check of page_pool_free_run (45 on one aligned block,
    # thousands fewer on an unaligned run): 1,330 -> 1,437.
    bench("frame_new", "init.run=^bench_frame@1",
          [fig("frame_new_256", 192000), fig("frame_delete_256", 1460),
           fig("frame_map_256", 40000), fig("frame_unmap_256", 18600),
           fig("process_end_1024", 1100000),
           fig("frame_bkl_hold_max", 5000, printed=HOLDS),
           fig("frame_bkl_hold_max" + GLOBAL_SUFFIX, printed="frame_bkl_hold_max")],
          holds_hart=r"^bench_frame: longest BKL hold \d+ instructions on hart (\d+)"),
    # A top-priority thread's timer lateness while a lower thread of its hart makes 256-page
    # frames back to back (servers/bench/framewake.c): FRAME_NEW holds itself back at a
    # preemption point for it (the same-hart bound: 10,000).
    bench("frame_wake", "init.run=^bench_framewake@1/200",
          [fig("frame_wake_late", budget_max=10000)]),
    # The same while the lower thread maps and unmaps a 256-page frame (servers/bench/mapwake.c):
    # MAP and UNMAP hold themselves back as FRAME_NEW does.
    bench("map_wake", "init.run=^bench_mapwake@1/200",
          [fig("map_wake_late", budget_max=10000)]),
    # Frames through the network device service (servers/bench/net.c): 60-byte frames from
    # net0's NIC to net1's (two instances of servers/net on one QEMU hub), the stream kept at
    # 1, 16 and 256 in flight; each sample is the machine's instructions (both drivers, the
    # kernel, the client, every hart) per frame received over a block of frames. The drivers'
    # interrupts per packet are printed beside (NETIRQ lines; docs/net.md).
    # net_packet_1's maximum is a tail: one block of frames that meets a rarer event, where
    # the boot's length puts it (init's image 2.5 KiB longer, nothing else changed, moves it
    # from 10,221 to 10,503, and net_packet_256's median from 1,410 to 1,134).
    bench("net_packet", f"init.run={NET_PAIR},^bench_net@1",
          [fig("net_packet_1", 10400, budget_max=10600), fig("net_packet_16", 1730),
           fig("net_packet_256", 2010)], NET_HUB),
    # The same over virtio-net-pci (NET_HUB_PCI): on the PLIC's machine each device on its
    # INTx line, one queue pair, served by net's one thread as over virtio-mmio (the same
    # figures, to a few instructions); on the AIA's (net_packet_pci_aia) each queue on an MSI-X
    # vector of its own, served by net's pair thread on hart 0 while its main thread takes the
    # client's signals: about 1,900 more a frame at 1 in flight (two threads of each driver
    # wake for a frame where one did), 120 at 16, 20 at 256. Interrupts per packet the same.
    bench("net_packet_pci", f"init.run={NET_PAIR_PCI},^bench_net@1",
          [fig("net_packet_pci_1", 10800, printed="net_packet_1"),
           fig("net_packet_pci_16", 1710, printed="net_packet_16"),
           fig("net_packet_pci_256", 1500, budget_max=2010, printed="net_packet_256")],
          NET_HUB_PCI),
    # net_packet_pci_16_aia's maximum is such a tail too: one block of 1,024 meets an event
    # that costs about 1,000 instructions, or the block before it (net_packet_pci_1_aia's
    # 12,425+) does, as the kernel's image moves the boot (INFO_PROCESS's code, never run
    # there, takes it from 1,729 to 2,758; median, p90 and p99 unchanged).
    bench("net_packet_pci_aia", f"init.run={NET_PAIR_PCI},^bench_net@1",
          [fig("net_packet_pci_1_aia", 12850, printed="net_packet_1"),
           fig("net_packet_pci_16_aia", 1830, budget_max=2900, printed="net_packet_16"),
           fig("net_packet_pci_256_aia", 1520, budget_max=2010, printed="net_packet_256")],
          NET_HUB_PCI, variant="aia"),
    # UDP echo through the IP stack (servers/bench/udp.c): bench_udp, a raw client of net1 that
    # writes its own headers, sends 32-byte datagrams to ip_static (servers/ip at a fixed
    # address) on net0, whose client servers/echo sends each back; the stream kept at 1, 16 and
    # 256 in flight; each sample is the machine's instructions (both drivers, ip, echo, the
    # client, the kernel, every hart) per datagram echoed over a block. Each component on a hart
    # of its own, so that the plugin hart_split.so splits the figure per component (UDP_SPLIT,
    # docs/benchmarks.md "UDP echo through the IP stack"). Interrupts per packet, datagrams lost
    # or reordered and ip's counters are printed beside (NETIRQ, UDPLOSS lines); a window that
    # lost a datagram reports no figure, which fails the benchmark. At 16 in flight the samples
    # fall in two modes (about 6,000-7,100 and 8,800-10,900: whether ip and echo sleep between
    # the window's turns or find the next datagram awake), in proportions an unrelated change
    # moves: its budget covers the upper mode's maximum. At 256 in flight, waits for a transmit
    # buffer that spun instead of sleeping (ip's in the link, lib's in a send: docs/net.md, "The
    # stall at 256 in flight") made the figure follow whichever spin a build's timing hit: under
    # -icount a spinning hart keeps the others from running until a timer fires. The MSI merge's
    # 8,255 (the kernel's share 886 a datagram) is 5,970 (kernel 176) at that commit with them
    # sleeping, and 3688ff9's 20 ms stall 6,012. Builds of several layouts (main, 3688ff9, the
    # MSI merge, user and kernel paths padded) gave medians 5,958-6,024, maxima 6,544-7,137, the
    # kernel's share 170-195. ip's cost a datagram then went 2,847 -> 2,577 (docs/net.md, "ip's
    # cost a datagram"): 5,688, so the median's budget is the networking issue's target, 6,000
    # (a layout moves the median by +-25); the maximum's stays 7,800.
    bench("udp_echo", f"init.run={UDP_ECHO_RUN}",
          [fig("udp_echo_1", 33000), fig("udp_echo_16", 12000),
           fig("udp_echo_256", 6000, budget_max=7800)], NET_HUB, smp=5, split=UDP_SPLIT),
    # The console server's first prompt (servers/bench/boot.c): boot time must not grow with
    # the memory size (the page allocator touches a page only when it first hands it out).
    bench("boot_to_shell_128M", "init.run=^bench_boot=console:ns16550a",
          [fig("boot_to_shell_128M", 19010000, printed="boot_to_shell")], mem="128M"),
    bench("boot_to_shell_2G", "init.run=^bench_boot=console:ns16550a",
          [fig("boot_to_shell_2G", 19010000, printed="boot_to_shell")], mem="2G"),
    # The scaling curves (SCALING), each curve's points in one boot: the same-hart raise to the
    # driver with N servers, each bound to a line of its own while the machine's lines last
    # (11: the edu's, the eight virtio-mmio transports', the RTC's and the UART's), all but the
    # driver asleep; the IPC round trip with N server processes, the calls to one of them; the
    # arming of a notification timer with N armed on its hart.
    bench("scale_irq", f"init.run={PCI},^bench_irq_scale@1/200:virtio,mmio+goldfish-rtc+ns16550a",
          scale_figures("scale_irq"), EDU),
    bench("scale_ipc", "init.run=^bench_ipc_scale@1", scale_figures("scale_ipc")),
    bench("scale_timer", "init.run=^bench_timer_scale@1", scale_figures("scale_timer")),
]

# The interrupt paths on the AIA's machine (VARIANT=aia: the APLIC in MSI mode delivers the edu
# device's INTx line into the hart's IMSIC file; kernel/arch/riscv/aia.c), beside the PLIC's:
# each of these benchmarks boots again there, as BOOT_aia, and records each figure NAME as
# NAME_aia, with its budget here. Same-hart paths cost 9 more than the PLIC's (the AIA's claim
# is the branch after the PLIC's load: a reserved IMSIC word read, the flag, stopei, the line
# from the identity); cross-hart ones pay the IPI (the AIA machine has no ACLINT SSWI). The two
# cross-hart paths without a device, the notification's wake-up and the IPC round trip, measure
# the IPI alone.
AIA_BUDGETS = {
    "irq_raise_to_trap": 6, "irq_top_half": 159, "irq_raise_to_server_same_hart": 320,
    "irq_raise_to_server_cross_hart": 1850, "irq_raise_to_service_same_hart": 334,
    "irq_raise_to_service_cross_hart": 1870, "irq_server_cycle": 680, "irq_service_cycle": 880,
    "irq_busy_cycle": 521, "irq_raise_to_fast_handler": 81,
    "notify_wake_cross_hart": 1800, "ipc_call_reply_cross_hart": 3290,
}


# The edu device's interrupt by MSI on the AIA's machine (servers/bench/irq_same_msi.c,
# irq_cross_msi.c: PCI_MSI, the message written straight into the line's hart's IMSIC file, no
# APLIC), beside the wired figures above: NAME_msi against NAME_aia (the same paths through the
# APLIC) and NAME (the PLIC's). The line is an edge masked lazily (no mask nor unmask per
# interrupt); its claim's own-hart test is inline: 15 more than the wired line's top half.
# Not charted.
BENCHMARKS += [
    bench("irq_same_hart_msi", f"init.run={PCI},^bench_irq_same_msi@1/200",
          [fig("irq_raise_to_trap_msi", 6), fig("irq_top_half_msi", 179),
           fig("irq_raise_to_server_same_hart_msi", 340)], EDU, variant="aia"),
    bench("irq_cross_hart_msi", f"init.run={PCI},^bench_irq_cross_msi@1/200",
          [fig("irq_raise_to_server_cross_hart_msi", 1867)], EDU, variant="aia"),
]

# The cross-hart paths on the AIA's machine once more with IPIs through the IMSIC (boot
# argument ipi=imsic: one store into the target hart's file; an idle target takes it without
# the BKL, as the ACLINT's, aia_idle_external; a busy one by its claim; aia.c), as
# NAME_aia_imsic: the same paths as NAME_aia, which pay SBI IPIs (the AIA machine's default),
# and the MSI's raise to its server across harts.
AIA_IMSIC_BUDGETS = {
    "notify_wake_cross_hart": 940, "ipc_call_reply_cross_hart": 1545,
    "irq_raise_to_server_cross_hart": 985, "irq_raise_to_service_cross_hart": 1010,
    "irq_raise_to_server_cross_hart_msi": 1000,
}


def on_aia(b, suffix="aia", budgets=AIA_BUDGETS, boot_args=""):
    """Benchmark b on the AIA's machine: its figures renamed NAME_SUFFIX, budgeted by budgets,
    booted with boot_args before b's own, neither charted (the charts are the PLIC's)."""
    boot, append, figures, extra, options = b
    return bench(f"{boot}_{suffix}", f"{boot_args}{append}",
                 [fig(f"{f.name}_{suffix}", budgets[f.name], printed=f.printed) for f in figures],
                 extra, **dict(options, variant="aia"))


def on_aia_imsic(b):
    """Benchmark b on the AIA's machine with IPIs through the IMSIC (ipi=imsic)."""
    return on_aia(b, "aia_imsic", AIA_IMSIC_BUDGETS, "ipi=imsic ")


BENCHMARKS += ([on_aia(b) for b in BENCHMARKS
                if b[2] and all(f.name in AIA_BUDGETS for f in b[2])] +
               [on_aia_imsic(b) for b in BENCHMARKS
                if b[2] and all(f.name in AIA_IMSIC_BUDGETS for f in b[2])])

# The stress benchmarks (`make bench-stress`, bench.py --stress; servers/bench/stress.h):
# bench_stress measures the edu interrupt's raise to its driver on the last hart (same hart)
# and from hart 0 to the last hart (cross hart) while one stressor runs on each hart between
# them; the longest BKL hold of the run is the plugin's (HOLDS: the most instructions any hart
# retired itself in one hold, from its start of scheduling), and bench_stress's reading of the
# kernel's own (TACET_INFO_HART, in the global count) is recorded beside it with GLOBAL_SUFFIX,
# unbudgeted. Each boot records the four under its own name and must print every stressor's
# completion line (`stress NAME: COUNT UNIT on hart H`, COUNT > 0). The test kernel, for its
# hold markers. STRESS_MACHINES: 4 harts, a stressor on each of harts 1 and 2 (stress_NAME_*),
# and 8, the kernel's MAX_HARTS, the same stressor on each of harts 1 to 6 (stress8_NAME_*: one
# kind of kernel work on as many harts as there are besides the driver's and hart 0).
# A set apart from BENCHMARKS: the stressors take seconds where the rest take a fraction of one.
# A stress figure's budget is its maximum's only.
STRESS_MACHINES = ((4, "stress"), (8, "stress8"))  # (harts, the prefix of its figures' names)
# A same-hart raise under stress is the idle figure (283) unless, under -icount's round robin,
# another hart was switched out holding the BKL: the interrupt's entry then waits for that hold
# (it is the heir, or right after the heir: bkl_lock_urgent), at most a hold (5,000, the hold
# budget) and the path: 898 in one stress8_procs sample.
STRESS_SAME_HART_BUDGET = 6000
STRESS_HOLD_BUDGET = 5000  # the target: BKL_YIELD_AFTER 1,500 + the longest step, ~3,200
# (stressor, unit of its count, the cross-hart figure's budget on each machine by its prefix).
# A cross-hart sample's tail is where QEMU's round robin was: under -icount the woken driver's
# hart runs when the busy hart's turn ends, which the next timer deadline bounds, so a change
# anywhere moves it (an unrelated server's code shifted stress_frames_cross_hart's maximum from
# 24,074 to 195,825, 2 samples of 100, its median the same: a 256-page FRAME_NEW's length).
# Each budget is about 3.4 times the largest maximum seen.
STRESSORS = [
    ("chains", "chains ended", {"stress": 4830000, "stress8": 11500000}),
    ("frames", "frames made", {"stress": 666000, "stress8": 196000}),
    ("threads", "threads made", {"stress": 238000, "stress8": 1140000}),
    ("ipc", "calls", {"stress": 301000, "stress8": 822000}),
    ("fuzz", "fuzz calls", {"stress": 3390000, "stress8": 13700000}),
    ("procs", "processes ended", {"stress": 3690000, "stress8": 2200000}),
]


def stress_benchmark(stressor, unit, cross_budgets, smp, prefix):
    harts = range(1, smp - 1)
    run = ",".join([PCI, *(f"stress_{stressor}=stress.{h}@{h}" for h in harts),
                    f"^bench_stress=stress.done@{smp - 1}/200"])
    name = f"{prefix}_{stressor}"
    return bench(name, f"init.run={run}",
                 [fig(f"{name}_same_hart", budget_max=STRESS_SAME_HART_BUDGET,
                      printed="stress_same_hart"),
                  fig(f"{name}_cross_hart", budget_max=cross_budgets[prefix],
                      printed="stress_cross_hart"),
                  fig(f"{name}_bkl_hold_max", budget_max=STRESS_HOLD_BUDGET, printed=HOLDS),
                  fig(f"{name}_bkl_hold_max" + GLOBAL_SUFFIX, printed="stress_bkl_hold_max")],
                 EDU, smp=smp, stressors=[(stressor, unit, h) for h in harts])


STRESS_BENCHMARKS = [stress_benchmark(*s, smp, prefix)
                     for smp, prefix in STRESS_MACHINES for s in STRESSORS]

# Wall-clock benchmarks: booted without -icount (real time, on a real disk backend), so their
# figures vary from run to run and with the host's load; printed after the table, never
# budgeted nor written to results.json. (boot, -append, figures, more QEMU arguments): each
# figure is a BLKBENCH line's name. The disk is build/blk-big.img (servers/blk/module.mk),
# opened with snapshot=on.
BLK_DISK = ["-drive", "file=build/blk-big.img,if=none,format=raw,id=disk0,snapshot=on",
            "-device", "virtio-blk-device,drive=disk0"]
WALL_CLOCK = [
    ("blk_read_4k", "init.run=blk:virtio-blk,^bench_blk@1[blk=0-]",
     ["blk_read_4k_qd1", "blk_read_4k_qd16"], BLK_DISK),
]


# The wall-clock stress benchmark (`make bench-wall`, bench.py --wall; servers/bench/wall.c,
# docs/benchmarks.md "The tail on parallel harts"): no -icount, QEMU's MTTCG (the harts really
# in parallel); bench_wall, the goldfish RTC's driver on hart 0 at priority 200, takes an alarm
# every millisecond idle, then while the stressor runs on each other hart, and reports each
# phase (tests/bench/wall.py); bench.py prints the stressed phase as ratios to the idle one.
# Each stressor on 2 harts (wall_NAME: a host thread a hart on a 2-CPU host, so a hart that
# waits waits for the kernel, not for the host to run the lock's holder) and on 4
# (wall_NAME_4harts: more busy harts than a 2-CPU host has CPUs, so the host's scheduler takes
# a hart off its CPU, lock held or not, for a tick at a time). Noisy: never budgeted, never in
# results.json nor the docs' table. (boot, -append, QEMU arguments, options as bench()'s: smp,
# stressors).
# The interrupt controllers side by side (tests/bench/plots.py's controllers.svg; make test's
# bench/plots checks it names each): a path's figure on the PLIC, through the APLIC in MSI mode
# (a wired line, delivered as a message into the hart's IMSIC file) and as a PCI MSI (the edu
# device's own message), each measured by the same server on its machine (AIA_BUDGETS, the _msi
# benchmarks).
CONTROLLERS = ("PLIC", "APLIC (wired, MSI mode)", "PCI MSI")
CONTROLLER_PATHS = [
    ("raise -> top half done", ("irq_top_half", "irq_top_half_aia", "irq_top_half_msi")),
    ("raise -> driver, same hart", ("irq_raise_to_server_same_hart",
                                    "irq_raise_to_server_same_hart_aia",
                                    "irq_raise_to_server_same_hart_msi")),
    ("raise -> driver, across harts", ("irq_raise_to_server_cross_hart",
                                       "irq_raise_to_server_cross_hart_aia",
                                       "irq_raise_to_server_cross_hart_msi")),
    ("the same, IPIs through the IMSIC", ("irq_raise_to_server_cross_hart",
                                          "irq_raise_to_server_cross_hart_aia_imsic",
                                          "irq_raise_to_server_cross_hart_msi_aia_imsic")),
]


WALL_STRESS_SMP = (2, 4)
WALL_STRESSORS = [("ipc", "calls"), ("fuzz", "fuzz calls"), ("chains", "chains ended"),
                  ("procs", "processes ended"), ("frames", "frames made"),
                  ("threads", "threads made")]


def wall_stress_benchmark(stressor, unit, smp):
    harts = range(1, smp)
    run = ",".join([*(f"stress_{stressor}=stress.{h}@{h}" for h in harts),
                    "^bench_wall=stress.done@0/200:goldfish-rtc"])
    name = f"wall_{stressor}" + ("" if smp == WALL_STRESS_SMP[0] else f"_{smp}harts")
    spin = os.environ.get("WALL_SPIN_US")  # the BKL's spin for interrupts (make bench-wall's)
    append = f"init.run={run}" + (f" bkl_spin_us={int(spin)}" if spin else "")
    return bench(name, append, [], ["-accel", "tcg,thread=multi"],
                 smp=smp, stressors=[(stressor, unit, h) for h in harts])


WALL_STRESS = [wall_stress_benchmark(*s, smp) for smp in WALL_STRESS_SMP for s in WALL_STRESSORS]


def figures(pool=None):
    """Every figure of pool (BENCHMARKS then STRESS_BENCHMARKS), in order."""
    return [f for b in (pool if pool is not None else BENCHMARKS + STRESS_BENCHMARKS)
            for f in b[2]]


def declaration_problems():
    """What is wrong with the declarations, as readable lines: a name twice, a figure without
    a budget but a ..._global one, a ..._global one with a budget."""
    problems, seen = [], set()
    for f in figures():
        if f.name in seen:
            problems.append(f"{f.name}: declared twice")
        seen.add(f.name)
        if f.name.endswith(GLOBAL_SUFFIX) and f.budget is not None:
            problems.append(f"{f.name}: the kernel's own hold figure is printed only, no budget")
        if not f.name.endswith(GLOBAL_SUFFIX) and f.budget is None:
            problems.append(f"{f.name}: no budget (fig(name, budget) or budget_max=)")
    every = BENCHMARKS + STRESS_BENCHMARKS + WALL_CLOCK + WALL_STRESS
    if len({b[0] for b in every}) != len(every):
        problems.append("two benchmarks have one name")
    return problems
