"""cases_pci.py: the PCI server and the edu driver: BAR assignment, INTx routing, claims, and
interrupts on a PCI line, alone and shared. The PCI server never ends, so the console's shell
powers the machine off once the drivers have reported."""

import re


def held_ends(out, name, limit_ms, want):
    """init's ends of server name for holding its own line's interrupt: want of them, each at
    ALIVE_OWN_HELD_MS (limit_ms) or later: a list of problems."""
    held = [int(ms) for ms in re.findall(rf"init: server {name} has held its interrupt "
                                         r"unacknowledged for (\d+) ms", out)]
    problems = [f"init ended {name} {len(held)} times for holding its interrupt (want {want})"]
    return ([] if len(held) == want else problems) + \
        [f"init ended {name} after holding {ms} ms, before {limit_ms}" for ms in held
         if ms < limit_ms]


CASES = [
    # One edu device: the PCI server places its BAR0 in the 32-bit window and routes slot 1's
    # INTA; the driver (on hart 2) claims it, and binding routes the line to hart 2 too; it
    # takes 1000 interrupts, one at a time, then the device's own completion interrupts: a
    # factorial, and DMA from RAM to the device and back (the DMA mask widened so that the
    # device reaches RAM at 2 GiB). On the AIA's machine the same by MSI: the first line the
    # kernel lends (97, after the APLIC's 96), aimed at the driver's hart's file.
    case("pci-edu",
         [r"pci: 00:00.0 1b36:0008 class 060000 bar0 none irq none",
          r"pci: 00:01.0 1234:11e8 class 00ff00 bar0 0x40000000 size 0x100000 irq 33",
          {"aclint": r"edu 0: id 0x10000ed, irq 33 on hart 2, driver on hart 2",
           "aia": r"pci: 00:01\.0 vector 0: line 97, hart 2\n[\s\S]*"
                  r"edu 0: id 0x10000ed, msi line 97 on hart 2, driver on hart 2"},
          r"edu 0: raised 1000, handled 1000 \(0 for other devices\): PASS",
          r"edu 0: factorial 10 = 3628800, completion interrupt 0x1: PASS",
          r"edu 0: DMA 2048 bytes from RAM at 0x[0-9a-f]+ to the device and back: 0 differ: PASS",
          r"init: power off requested by uart"],
         bootargs="init.run=^%uart=console:ns16550a,pci:pci-host-ecam-generic+pci-mmio32+pci-intx,"
                  "edu_dma@2",
         qemu_args=("-device", "edu,dma_mask=0xffffffffffffffff"),
         console_input=(r"edu 0: DMA [^\n]*\n", "poweroff\r"), variants=CONTROLLERS),
    # The same driver on the smallest and the largest machine: on one hart with the console,
    # pci and init; on the last of eight. The line follows the driver either way.
    *(case(f"pci-edu-smp{n}",
           [rf"edu 0: id 0x10000ed, irq 33 on hart {n - 1}, driver on hart {n - 1}",
            r"edu 0: raised 1000, handled 1000 \(0 for other devices\): PASS",
            r"edu 0: factorial 10 = 3628800, completion interrupt 0x1: PASS",
            r"edu 0: DMA 2048 bytes from RAM at 0x[0-9a-f]+ to the device and back: 0 differ: "
            r"PASS",
            r"init: power off requested by uart"],
           smp=n, bootargs="init.run=^%uart=console:ns16550a,pci:pci-host-ecam-generic+pci-mmio32+"
                           f"pci-intx,edu_dma@{n - 1}",
           qemu_args=("-device", "edu,dma_mask=0xffffffffffffffff"),
           console_input=(r"edu 0: DMA [^\n]*\n", "poweroff\r"), timeout=60) for n in (1, 8)),
    # Three edu devices in slots 1, 5 and 9 (congruent mod 4) share one INTx line; three
    # edu_shared servers on different harts each claim one and, once all three have bound the
    # line (however late the host runs one of them), raise 1000 interrupts at the same time:
    # every interrupt is handled once, by its own driver, and none is lost.
    case("pci-edu-shared-line",
         [r"pci: 00:01.0 1234:11e8 class 00ff00 bar0 0x40000000 size 0x100000 irq 33",
          r"pci: 00:05.0 1234:11e8 class 00ff00 bar0 0x40100000 size 0x100000 irq 33",
          r"pci: 00:09.0 1234:11e8 class 00ff00 bar0 0x40200000 size 0x100000 irq 33",
          r"edu 0: raised 1000, handled 1000 \(\d+ for other devices\): PASS",
          r"edu 1: raised 1000, handled 1000 \(\d+ for other devices\): PASS",
          r"edu 2: raised 1000, handled 1000 \(\d+ for other devices\): PASS",
          r"init: power off requested by uart"],
         bootargs="init.run=^%uart=console:ns16550a,pci:pci-host-ecam-generic+pci-mmio32+pci-intx,"
                  "edu_shared@1,edu_shared@2,edu_shared@3",
         qemu_args=("-device", "edu,addr=1", "-device", "edu,addr=5", "-device", "edu,addr=9"),
         console_input=(r"(edu \d: factorial[^\n]*\n[\s\S]*){3}", "poweroff\r"), timeout=60,
         variants=CONTROLLERS),
    # A driver that answers its calls but never acknowledges its interrupt (edu_hold, `~10`)
    # shares the INTx line with two edu_shared drivers: the first interrupt of theirs stays
    # masked for all three until init ends edu_hold, whose liveness question stands while it
    # holds a shared line's interrupt it held when asked (TACET_INFO_PROCESS's irq_held);
    # then each edu_shared gets its 1000, every one handled once (a lost one waits 1 s and
    # fails). Before, edu_hold answered every question and was never ended.
    case("liveness-shared-line-holder",
         [r"edu_hold: edu \d's line (\d+) bound shared; its interrupts are never acknowledged",
          r"init: server edu_hold has not answered for \d+ ms \(it answers calls, but holds a "
          r"shared line's interrupt unacknowledged: the line's other drivers wait for it\)"
          r"(, [a-z ]+)?; ending it",
          r"edu \d: raised 1000, handled 1000 \(\d+ for other devices\): PASS[\s\S]*"
          r"edu \d: raised 1000, handled 1000 \(\d+ for other devices\): PASS",
          r"init: power off requested by uart"],
         bootargs="init.run=^%uart=console:ns16550a,pci:pci-host-ecam-generic+pci-mmio32+pci-intx,"
                  "edu_hold~10,edu_shared@1,edu_shared@2",
         qemu_args=("-device", "edu,addr=1", "-device", "edu,addr=5", "-device", "edu,addr=9"),
         console_input=(r"(edu \d: factorial[^\n]*\n[\s\S]*){2}", "poweroff\r"), timeout=60,
         forbid=(r"PANIC", r"FAIL", r"init: restarting edu_hold"),
         variants=CONTROLLERS),
    # The same driver with its line alone (edu_hold_own, `~1000`): it raises one interrupt of
    # its own device and never takes it, answering every question. The kernel masks the line
    # (oneshot) until an ack that never comes; TACET_INFO_PROCESS's irq_held_own says so, and
    # init ends it once it has held that interrupt ALIVE_OWN_HELD_MS (2 s) in its receive, not
    # before, once: a limit of its own, not the entry's. Its end settles the ack; its next
    # instance binds the line again and serves it for 5 s, a burst of interrupts a millisecond
    # in the loop that answers its questions, most of them through lib's device loop (each ack
    # put off to the next wait): every one handled, and it is never taken for a holder (nor
    # for a server that does not answer). Before, the first instance answered every question
    # and was never ended.
    case("liveness-own-line-holder",
         [r"edu_hold_own: edu \d's line (\d+) bound alone; its interrupt is never taken nor "
          r"acknowledged",
          r"init: server edu_hold has held its interrupt unacknowledged for \d+ ms \(it answers "
          r"calls, but its device is not served\); ending it",
          r"init: restarting edu_hold \(restart 1\)",
          r"edu_hold_own: instance 1: edu \d's line \d+ bound alone; serving its interrupts "
          r"for 5000 ms",
          r"edu_hold_own: instance 1: for 5000 ms: raised (\d+), handled \1 \(\d+ acks put off "
          r"to the next wait\): PASS",
          r"init: power off requested by uart"],
         bootargs="init.run=^%uart=console:ns16550a,pci:pci-host-ecam-generic+pci-mmio32+pci-intx,"
                  "edu_hold=edu_hold_own*1~1000",
         qemu_args=("-device", "edu,addr=1"),
         console_input=(r"edu_hold_own: instance 1: for[^\n]*\n", "poweroff\r"), timeout=90,
         forbid=(r"PANIC", r"FAIL", r"has not answered", r"init: restarting edu_hold \(restart 2"),
         check=lambda out: held_ends(out, "edu_hold", 2000, 1),
         variants=CONTROLLERS),
    # 100,000 interrupts: four edu devices in slots 1-4 (one INTx line each: 33, 34, 35, 32),
    # four edu_flood drivers on the four harts, 25,000 interrupts each; in every 2,500 each
    # driver moves its line to another hart for 25 and back, each move while an interrupt is in
    # flight, and checks the per-hart counts. Every interrupt raised is handled exactly once;
    # none is lost in a move. A phase may count one claim more or less than it raised when
    # another function's INTx-disable bit changes (QEMU then sends every INTx level again:
    # edu.c); the driver allows 12 such phases (two per change, 3 starts and 3 ends). 30 s to 4 minutes on a 2-CPU host (four busy harts on two CPUs
    # contend for the big kernel lock), hence the long timeout.
    case("pci-edu-100k-affinity",
         [r"(edu \d: raised 25000, handled 25000 \(0 for other devices\), 20 moves, "
          r"\d+ uneven phases: PASS"
          r"[\s\S]*){4}",
          r"init: power off requested by uart"],
         bootargs="init.run=^%uart=console:ns16550a,pci:pci-host-ecam-generic+pci-mmio32+pci-intx,"
                  "edu_flood@0,edu_flood@1,edu_flood@2,edu_flood@3",
         qemu_args=("-device", "edu,addr=1", "-device", "edu,addr=2", "-device", "edu,addr=3",
                    "-device", "edu,addr=4"),
         console_input=(r"(edu \d: raised[^\n]*\n[\s\S]*){4}", "poweroff\r"), timeout=600,
         # the AIA's on the deterministic machine: QEMU 7.2's IMSIC, a host thread a hart, can
         # strand a message that lands while the hart claims (docs/interrupts.md, "IPIs
         # through the IMSIC"): an edu interrupt late by a second, once in about 20 loaded runs
         variants=CONTROLLERS, icount={"aclint": False, "aia": True}),
    # The same by MSI on the AIA's machine (edu_flood_msi): each move is PCI_MSI_MOVE, the line
    # to the other hart's file and the device told the new address; a message sent before lands
    # in the old hart's file, whose claim sends it on to the new one, so every interrupt is
    # taken (and counted) on the hart the line is routed to but the first of a phase, and no
    # phase is uneven (an MSI is never sent twice). The driver acknowledges from its home hart
    # while its line is away: the unmask reaches the other hart's file by IPI. On the
    # deterministic machine: under MTTCG QEMU 7.2's IMSIC loses a message the raising hart's
    # thread writes into a file whose own hart is accessing it (aia.c; docs/interrupts.md, "IPIs
    # through the IMSIC"): 2 of 4 boots lost one there (the driver's 1 s timer), 0 of 2 with
    # -accel tcg,thread=single, 0 under -icount, the same kernel.
    case("pci-msi-100k-affinity",
         [r"(edu \d: raised 25000, handled 25000 \(0 for other devices\), 20 moves, "
          r"0 uneven phases: PASS"
          r"[\s\S]*){4}",
          r"init: power off requested by uart"],
         variant="aia", icount=True,
         bootargs="init.run=^%uart=console:ns16550a,pci:pci-host-ecam-generic+pci-mmio32+pci-intx,"
                  "edu_flood_msi@0,edu_flood_msi@1,edu_flood_msi@2,edu_flood_msi@3",
         qemu_args=("-device", "edu,addr=1", "-device", "edu,addr=2", "-device", "edu,addr=3",
                    "-device", "edu,addr=4"),
         console_input=(r"(edu \d: raised[^\n]*\n[\s\S]*){4}", "poweroff\r"), timeout=600),
    # MSI-X: QEMU's nvme controller (its MSI-X table in BAR0), on the AIA's machine. nvmemsix
    # asks pci for vector 0 on its hart (pci masks the table entry, writes the address and data
    # the kernel lent, unmasks it, turns MSI-X on), binds the line, enables the controller and
    # sends 100 Identify commands one at a time: each completion comes by its MSI-X interrupt,
    # the line counts exactly 100. At its end pci masks the vector and frees the line.
    case("pci-msix-nvme",
         [r"pci: 00:01\.0 vector 0: line 97, hart 1",
          r"nvmemsix: the controller's model: QEMU NVMe Ctrl",
          r"nvmemsix: 100 commands, each completion by its MSI-X interrupt \(line 97, count "
          r"\+100\): PASS",
          r"pci: 00:01\.0 vector 0 masked, its line freed",
          r"init: power off requested by uart"],
         variant="aia",
         bootargs="init.run=^%uart=console:ns16550a,pci:pci-host-ecam-generic+pci-mmio32+pci-intx,"
                  "nvmemsix@1",
         qemu_args=("-device", "nvme,serial=deadbeef"),
         console_input=(r"vector 0 masked, its line freed", "poweroff\r")),
    # A claim ends with its driver: two edu servers and one edu device; the second waits while
    # the first holds the device, and claims it once the first has ended (the PCI server
    # watches each claiming driver's process).
    case("pci-claim-released",
         [r"edu 0: raised 1000, handled 1000 \(0 for other devices\): PASS[\s\S]*"
          r"pci: 00:01\.0 released \(its driver ended\)[\s\S]*"
          r"edu 0: raised 1000, handled 1000 \(0 for other devices\): PASS[\s\S]*"
          r"pci: 00:01\.0 released \(its driver ended\)",
          r"init: power off requested by uart"],
         bootargs="init.run=^%uart=console:ns16550a,pci:pci-host-ecam-generic+pci-mmio32+pci-intx,"
                  "edu@1,edu@2",
         qemu_args=("-device", "edu",),
         console_input=(r"(released[^\n]*\n[\s\S]*){2}", "poweroff\r"), variants=CONTROLLERS),
    # A driver that ends mid-interrupt: two edu_abandon drivers take turns on one device. Each
    # takes 100 interrupts, then raises one more and ends without acknowledging it, to the
    # device (its status stays set) or to the kernel (the line PENDING on its ack). The kernel
    # settles the owed ack as not handled (the next driver finds 1 unhandled interrupt on the
    # line) and masks the line; pci turns the function's bus mastering and INTx off at the
    # release (command 0x0402: memory decoding and Interrupt Disable), bus mastering on at the
    # next claim (0x0406) and INTx only when the driver asks for its line (0x0006), after
    # edu_open cleared the stale status: nothing the first driver left reaches the second. The
    # second driver's first interrupt, and every other, arrive: the line has taken 101
    # interrupts, then 202.
    case("pci-release-pending",
         [r"edu 0: line 33: 0 interrupts nobody handled before this driver\n[\s\S]*"
          r"edu 0: raised 100, handled 100 \(0 for other devices\): PASS[\s\S]*"
          r"edu 0: ending with an interrupt pending \(status 0x1, line 33 pending on its ack, "
          r"101 taken on it so far\)[\s\S]*"
          r"pci: 00:01\.0 released \(its driver ended\), command 0x0402\n[\s\S]*"
          r"pci: 00:01\.0 claimed, command 0x0402\n[\s\S]*"
          r"pci: 00:01\.0 bus mastering on, command 0x0406\n[\s\S]*"
          r"pci: 00:01\.0 INTx on, command 0x0006\n[\s\S]*"
          r"edu 0: line 33: 1 interrupts nobody handled before this driver\n[\s\S]*"
          r"edu 0: raised 100, handled 100 \(0 for other devices\): PASS[\s\S]*"
          r"edu 0: ending with an interrupt pending \(status 0x1, line 33 pending on its ack, "
          r"202 taken on it so far\)[\s\S]*"
          r"pci: 00:01\.0 released \(its driver ended\), command 0x0402\n",
          r"init: power off requested by uart"],
         bootargs="init.run=^%uart=console:ns16550a,pci:pci-host-ecam-generic+pci-mmio32+pci-intx,"
                  "edu_abandon@1,edu_abandon@2",
         qemu_args=("-device", "edu",),
         console_input=(r"(released[^\n]*\n[\s\S]*){2}", "poweroff\r"), variants=CONTROLLERS),
    # A PCI driver dies with DMA in flight: edu_dmadie starts a DMA transfer from the
    # device into a page of RAM pinned to its BAR0 frame (a part of pci's window) and faults,
    # twice (init restarts it). The page waits in the window's quarantine until pci has turned
    # the function's bus mastering off (and reset it, where it can: edu has no FLR), then pci
    # releases that function's part of the window: 1 page back each time. Each instance says
    # the machine's memory once it holds the device (pci serves the claim only after the
    # release): the restarts find the same figures, no page lost. The third instance's DMA
    # round trip works. Before pci released the quarantine, the pages stayed there for ever
    # (the restarts' free pages fell by a page and an object each time).
    case("pci-dma-quarantine",
         [r"edu 0: instance 0 claimed its device: free pages \d+",
          r"edu 0: DMA of 2048 bytes from the device to RAM at 0x[0-9a-f]+ started; faulting",
          r"init: server edu_dmadie faulted",
          r"(pci: 00:01\.0 released \(its driver ended\), command 0x0402\n[\s\S]*"
          r"pci: 00:01\.0 no function-level reset \(it has none\); 1 pages back from its DMA "
          r"quarantine\n[\s\S]*){2}",
          r"edu 0: instance 1 claimed its device: free pages (\d+), object caches (\d+), kernel "
          r"objects (\d+)\n[\s\S]*"
          r"edu 0: instance 2 claimed its device: free pages \1, object caches \2, kernel "
          r"objects \3\n",
          r"edu 0: DMA 2048 bytes from RAM at 0x[0-9a-f]+ to the device and back: 0 differ: PASS",
          r"init: server edu_dmadie finished with status 0",
          r"init: power off requested by uart"],
         bootargs="init.run=^%uart=console:ns16550a,pci:pci-host-ecam-generic+pci-mmio32+pci-intx,"
                  "edu_dmadie@1*2",
         qemu_args=("-device", "edu,dma_mask=0xffffffffffffffff"),
         console_input=(r"init: server edu_dmadie finished[^\n]*\n", "poweroff\r"),
         variants=CONTROLLERS),
    # A driver dies with a message-signalled interrupt in flight, twice (init restarts it):
    # edu_msidie raises 500, each while the one before is unacknowledged (held in the hart's
    # file, masked, until the ack_wait that unmasks it), then one more, and faults with the
    # line PENDING and that message waiting in the file. pci masks the function's MSI and frees
    # the line before its DMA quarantine (the kernel drops the waiting message, counted
    # spurious); nothing reaches the dead driver's notification. Each instance gets the same
    # line again and finds its counts adding up: count 500 x k, unhandled k (the owed acks),
    # spurious k (the dropped messages): raised = delivered + spurious. The third runs to its
    # end. On the PLIC's machine the same driver on INTx: its line is never freed, and the
    # interrupt in flight is the device's status, which the next instance clears (edu_open):
    # there each instance's own 500 are checked, not the start's figures.
    case("pci-msi-driver-dies",
         [{"aclint": r"edu_msidie: instance 0: INTx line 33: count 0, unhandled 0, spurious 0 "
                     r"at the start: not checked",
           "aia": r"edu_msidie: instance 0: line 97: count 0, unhandled 0, spurious 0 at the "
                  r"start: PASS"},
          {"aclint": r"edu_msidie: instance 0: 500 raised, 500 delivered: PASS",
           "aia": r"edu_msidie: instance 0: 500 raised, 500 delivered, line count \+500: PASS"},
          r"edu_msidie: instance 0: one more raised, the last unacknowledged; faulting",
          {"aclint": r"pci: 00:01\.0 released \(its driver ended\)",
           "aia": r"pci: 00:01\.0 released \(its driver ended\), command 0x0402\n[\s\S]*"
                  r"pci: 00:01\.0 vector 0 masked, its line freed\n[\s\S]*"
                  r"pci: 00:01\.0 no function-level reset"},
          {"aclint": r"edu_msidie: instance 1: INTx line 33",
           "aia": r"edu_msidie: instance 1: line 97: count 500, unhandled 1, spurious 1 at the "
                  r"start: PASS"},
          {"aclint": r"edu_msidie: instance 2: INTx line 33",
           "aia": r"edu_msidie: instance 2: line 97: count 1000, unhandled 2, spurious 2 at the "
                  r"start: PASS"},
          {"aclint": r"edu_msidie: instance 2: 500 raised, 500 delivered: PASS",
           "aia": r"edu_msidie: instance 2: 500 raised, 500 delivered, line count \+500: PASS"},
          r"init: server edu_msidie finished with status 0",
          r"init: power off requested by uart"],
         bootargs="init.run=^%uart=console:ns16550a,pci:pci-host-ecam-generic+pci-mmio32+pci-intx,"
                  "edu_msidie@1*2",
         qemu_args=("-device", "edu"),
         console_input=(r"init: server edu_msidie finished[^\n]*\n", "poweroff\r"),
         variants=CONTROLLERS),
    # The bus server dies with a function left running: pci_dying's first instance
    # faults when edu_dmadie's first instance has died with its DMA started, before quieting
    # the function. The page stays in the window's quarantine: init does not release a bus
    # window (it cannot quiet the functions; it used to, then: 1 page back while the function
    # still had bus mastering on); pci's next instance quiets every function at its start and
    # releases the whole window: 1 page back. Then as above.
    case("pci-dies-quarantine",
         [r"edu 0: DMA of 2048 bytes from the device to RAM at 0x[0-9a-f]+ started; faulting",
          r"pci_dying: instance 0: a driver ended; faulting",
          r"pci: instance 1: every function quiet; 1 pages back from the window's DMA "
          r"quarantine",
          r"pci: 00:01\.0 no function-level reset \(it has none\); 1 pages back from its DMA "
          r"quarantine",
          r"edu 0: DMA 2048 bytes from RAM at 0x[0-9a-f]+ to the device and back: 0 differ: PASS",
          r"init: server edu_dmadie finished with status 0"],
         bootargs="init.run=^%uart=console:ns16550a,"
                  "pci_dying=pci:pci-host-ecam-generic+pci-mmio32+pci-intx*1,edu_dmadie@1*2",
         qemu_args=("-device", "edu,dma_mask=0xffffffffffffffff"),
         forbid=(r"PANIC", r"FAIL", r"init: pci_dying's devices"),
         console_input=(r"init: server edu_dmadie finished[^\n]*\n", "poweroff\r"),
         variants=CONTROLLERS),
    # A PCI driver dies with its device enabled (device reset on death): nvmedie
    # claims QEMU's nvme controller (PCI Express capability with FLR), gives it admin queues in
    # a 2-page DMA frame pinned to its BAR0, enables it (CSTS.RDY=1) and faults. pci quiets
    # the function, resets it (function-level reset: it answers again) and releases the 2
    # pages. The restart finds the controller disabled (CC.EN=0, CSTS.RDY=0), before touching
    # it, and enables it again. Without the reset (bus mastering off alone), it finds EN=1,
    # RDY=1 and fails.
    case("pci-flr-nvme",
         [r"pci: 00:01\.0 1b36:0010 class 010802 bar0 0x[0-9a-f]+ size 0x[0-9a-f]+ irq \d+",
          r"nvmedie: instance 0: CAP 0x[0-9a-f]+, version 0x[0-9a-f]+; found CC\.EN=0, "
          r"CSTS\.RDY=0\n",
          r"nvmedie: instance 0: admin queues at 0x[0-9a-f]+ \(2 pages\), CC 0x460001: "
          r"CSTS\.RDY=1, CSTS\.CFS=0\n",
          r"nvmedie: instance 0: faulting with the controller enabled[\s\S]*"
          r"init: server nvmedie faulted[\s\S]*"
          r"pci: 00:01\.0 released \(its driver ended\), command 0x0402\n[\s\S]*"
          r"pci: 00:01\.0 function-level reset: it answers again; 2 pages back from its DMA "
          r"quarantine\n[\s\S]*"
          r"nvmedie: instance 1: CAP 0x[0-9a-f]+, version 0x[0-9a-f]+; found CC\.EN=0, "
          r"CSTS\.RDY=0\n",
          r"nvmedie: instance 1: admin queues at 0x[0-9a-f]+ \(2 pages\), CC 0x460001: "
          r"CSTS\.RDY=1, CSTS\.CFS=0\n",
          r"nvmedie: instance 1: enabled again after the reset, then disabled: PASS",
          r"init: server nvmedie finished with status 0",
          r"pci: 00:01\.0 function-level reset: it answers again; 0 pages back from its DMA "
          r"quarantine",
          r"init: power off requested by uart"],
         bootargs="init.run=^%uart=console:ns16550a,pci:pci-host-ecam-generic+pci-mmio32+pci-intx,"
                  "nvmedie@1*1",
         qemu_args=("-device", "nvme,serial=deadbeef"),
         console_input=(r"again; 0 pages back from its DMA quarantine", "poweroff\r"),
         variants=CONTROLLERS),
]

# A driver's PCI_BAR and PCI_CONFIG with bad arguments: refused, each with its code, and
# the calls still answer afterwards. Before the calls existed every one was EINVAL (an unknown
# label), and the last two failed.
CASES += [
    case("pci-bar-config-bad",
         [r"pcibad: PCI_BAR 6 \(past the six\) -> EINVAL: PASS",
          r"pcibad: PCI_BAR 1 \(edu has BAR0 alone\) -> ENOENT: PASS",
          r"pcibad: PCI_BAR of a function that does not exist -> ENOENT: PASS",
          r"pcibad: PCI_CONFIG at 4096 \(past the function's page\) -> EINVAL: PASS",
          r"pcibad: PCI_CONFIG at 2 \(not 4-aligned\) -> EINVAL: PASS",
          r"pcibad: PCI_CONFIG of a function that does not exist -> ENOENT: PASS",
          r"pcibad: then PCI_BAR 0 answers with its 1 MiB: PASS",
          r"pcibad: and PCI_CONFIG at 0 with edu's IDs: PASS",
          r"pcibad: 8 checks, 0 failed", r"init: power off requested by pcibad"],
         bootargs="init.run=pci:pci-host-ecam-generic+pci-mmio32+pci-intx,^pcibad",
         qemu_args=("-device", "edu"), smp=2, timeout=20),
]

# The single and the shared line again on the AIA's machine with IPIs through the IMSIC
# (ipi=imsic): each wake-up of a driver on another hart is an identity in that hart's file,
# taken by the claim before or between the lines' interrupts. On the deterministic machine
# (QEMU 7.2's IMSIC loses messages between host threads: kernel/arch/riscv/aia.c).
CASES += [dict(c, name=f"{c['name']}@aia-ipi-imsic", variant="aia", variants=("aia",),
               expect=[r"; ipi: imsic\n", *c["expect"]], bootargs=f"ipi=imsic {c['bootargs']}",
               icount=True)
          for c in CASES if c["name"] in ("pci-edu", "pci-edu-shared-line")]
