"""cases_isolation.py: the adversarial suite: hostile servers that try to harm another server or
the kernel with nothing but what init gives any server, and the checks that each target is
unaffected."""
import re

PCI_RUN = "init.run=^%uart=console:ns16550a,pci:pci-host-ecam-generic+pci-mmio32+pci-intx"
LABELS = r"32768 kernel labels x2 refused with EINVAL: PASS"

# restart-console's results, as spliced() lines (the output's \r\n as it comes from QEMU)
# (the answer at the start of a line, so that the echo of the typed "echo back again" is not it)
RESTART_BACK = spliced("", r"\nb", "ack again\n")
RESTART_CHATTER = spliced("chatter: 300 lines, 0 failed: PASS")
RESTART_SQUATTER = spliced("squatter: ", r"\d+",
                           " tries, 0 took the name, each refused with EPERM: PASS")


def restart_all_said(out):
    """restart-console's three results are all out: time to power off."""
    out = out.replace("\r\n", "\n")
    return RESTART_BACK(out) and RESTART_SQUATTER(out) and RESTART_CHATTER(out)  # cheap first


def hold_over(out, who, bound):
    """A server's report of its hart's longest BKL hold (`longest BKL hold N instructions`) is
    at most bound."""
    m = re.search(who + r": .*longest BKL hold (\d+) instructions", out)
    if not m:
        return [f"{who} reported no longest hold"]
    if int(m.group(1)) > bound:
        return [f"{who}: the longest BKL hold was {m.group(1)} instructions, over {bound}"]
    return []


def quarantine_whole(out):
    """dmadie: each instance's DMA pages (its rings and its 2-page buffer: at least 3) came back
    from quarantine only after init reset the device, twice (two instances)."""
    got = [int(n) for n in re.findall(r"init: dmadie's devices: 1 reset, (\d+) pages back "
                                       r"from their DMA quarantine", out)]
    if len(got) != 2 or min(got) < 3:
        return [f"want two quarantine releases of at least 3 pages each, got {got}"]
    return []


# A driver killed with DMA in flight: the test builds blk_dying and rng_dying fault
# with the device holding requests it will still write (QEMU slows it down: null-co's latency,
# virtio-rng's rate limit). canary_* (servers/tests/canary.c) takes every free page it can the
# moment a call tells it the driver ended, fills them with a pattern, waits for the restarted
# instance and checks them: a page that went back to the pool while the device could write it
# would be the canary's when the write lands. init resets the device (Status 0), then releases
# the quarantine; the restarted driver finds Status 0 and serves; every page comes back (the
# canary compares free memory only in the rng case, where it is the service's sole client).
DMA_KILL_RNG = ("-object", "rng-random,filename=/dev/urandom,id=slowrng",
                "-device", "virtio-rng-device,rng=slowrng,max-bytes=64,period=1000")
DMA_KILL_BLK = ("-drive", "file=build/blk-big.img,if=none,format=raw,id=disk0,snapshot=on,"
                "throttling.iops-total=4", "-device", "virtio-blk-device,drive=disk0")
DMA_KILL = [
    case("dma-kill-rng",
         [r"rng_dying: instance 0: a read waits for the device, which holds [1-8] buffers; "
          r"faulting",
          r"canary: instance 0 of \"rng\" ended \(the other side is gone at call \d+\); took "
          r"\d+ free pages at once, each filled with a pattern",
          r"init: rng_dying's devices: 1 reset, [2-9] pages back from their DMA quarantine",
          r"rng: instance 1: the device's Status was 0 at start",
          r"canary: \"rng\" back as instance 1, which answers \(success\); \d+ pages checked, 0 "
          r"changed: PASS",
          r"canary: free pages \d+ before the death, \d+ after .*: PASS",
          r"init: power off requested by canary_rng"],
         bootargs="init.run=rng_dying=rng:virtio-rng*1,^canary_rng@1 init.budget=12000",
         smp=2, qemu_args=DMA_KILL_RNG, timeout=60),
    case("dma-kill-blk",
         [r"blk_dying: instance 0: 16 requests at the device; faulting",
          r"canary: instance 0 of \"blk\" ended \(the other side is gone at call \d+\); took "
          r"\d+ free pages at once, each filled with a pattern",
          r"init: blk_dying's devices: 1 reset, [2-9] pages back from their DMA quarantine",
          r"blk: instance 1: the device's Status was 0 at start",
          r"canary: \"blk\" back as instance 1, which answers \(success\); \d+ pages checked, 0 "
          r"changed: PASS",
          r"blkinflight: 16 writes of 4 KiB in flight when the service ended; reached it again as "
          r"instance 1 \(1 reconnects\), 0 of the writes failed \(success\): PASS",
          r"blkinflight: sectors 0-127 read back \(success\), 0 bytes wrong: PASS",
          r"init: power off requested by blkinflight"],
         bootargs="init.run=blk_dying=blk:virtio-blk*1,^blkinflight@1[blk=0-],canary_blk@1 "
                  "init.budget=8000",
         smp=2, qemu_args=DMA_KILL_BLK, needs=["build/blk-big.img"], timeout=60),
    # A client waiting when the service ends: blkwaitdie, with no timeout, waits for
    # 8 writes the throttled disk holds; blkpoke's writes bring the device to 16 and blk_dying
    # faults. The kernel's watch of the service's endpoint (ENDPOINT_WATCH) ends the wait: lib
    # reaches instance 1 and submits the 8 again, which land. Without the watch the wait never
    # ends (no timeout), and with a timeout it ended only after it (10 s by default).
    case("blk-end-while-waiting",
         [r"blk_dying: instance 0: 16 requests at the device; faulting",
          r"blkwaitdie: waiting for 8 writes when the service ended: told by the watch 1 times, "
          r"reached instance 1 \(1 reconnects\), 0 failed \(success\): PASS",
          r"blkwaitdie: read back \(success\), 0 bytes wrong: PASS",
          r"init: power off requested by blkwaitdie"],
         bootargs="init.run=blk_dying=blk:virtio-blk*1,^blkwaitdie@1[blk=0-99],"
                  "blkpoke@1[blk=100-199]",
         smp=2, qemu_args=DMA_KILL_BLK, needs=["build/blk-big.img"], timeout=60),
    # The same death over virtio-pci: the rings and buffers were pinned to the function's BAR
    # frame, so the pci server, not init, quiets the function (bus mastering off), waits, and
    # only then releases them; the restarted driver claims it again once free, resets it before
    # bus mastering comes back on, and serves. The canary's pages are untouched.
    case("dma-kill-rng-pci",
         [r"rng_dying: instance 0: a read waits for the device, which holds [1-8] buffers; "
          r"faulting",
          r"canary: instance 0 of \"rng\" ended \(the other side is gone at call \d+\); took "
          r"\d+ free pages at once, each filled with a pattern",
          r"pci: 00:02.0 released \(its driver ended\), command 0x0402",
          r"pci: 00:02.0 no function-level reset \(it has none\); [2-9] pages back from its DMA "
          r"quarantine",
          r"rng: instance 1: the device's Status was 0xb at start",
          r"canary: \"rng\" back as instance 1, which answers \(success\); \d+ pages checked, 0 "
          r"changed: PASS",
          r"canary: free pages \d+ before the death, \d+ after .*: PASS",
          r"init: power off requested by canary_rng"],
         bootargs="init.run=pci:pci-host-ecam-generic+pci-mmio32+pci-intx,rng_dying=rng*1,"
                  "^canary_rng@1 init.budget=8000",
         smp=2, qemu_args=DMA_KILL_RNG[:2] + ("-device", "virtio-rng-pci,rng=slowrng,"
                                              "max-bytes=64,period=1000,addr=2"),
         timeout=60, variants=CONTROLLERS),
]

CASES = [
    # Restarts cannot launder memory: giver sends keeper seven 256-page frames and
    # faults, five times over (init restarts it). Each instance is charged to the server's one
    # account, which the frames keeper holds still fill: the first gives 7, the others none
    # (ENOMEM), and the machine's free memory is the same at every restart (it fell by 7 MiB
    # a restart when each instance had a fresh account).
    case("restart-no-laundering",
         [r"giver: gave keeper 7 frames of 256 pages \(all\)",
          r"(?s)init: restarting giver \(restart 1\).*giver: gave keeper 0 frames of 256 pages "
          r"\(out of memory",
          r"init: restarting giver \(restart 1\): free pages (\d+), object caches (\d+), "
          r"kernel objects (\d+)[\s\S]*init: restarting giver \(restart 5\): free pages \1, "
          r"object caches \2, kernel objects \3",
          r"init: server giver failed \(status -7\) after 5 restarts; giving up",
          r"keeper: kept 7 frames; giver's 6 instances done",
          r"init: leak check: .*: PASS"],
         bootargs="init.run=keeper,giver*5", status=1, timeout=60),
    # Generations: a client learns which instance of a service it reached (lookup),
    # is told by its watch of the service's endpoint when that instance dies (the wait would
    # never end without it), gets EDEAD from a call, reconnects and learns it reached a new one.
    case("reconnect-instance",
         [r"gencli: looked up instance 0, which answers 0: PASS",
          r"gencli: the watch of its endpoint said 0x4: PASS",
          r"gencli: a watch of the ended endpoint: the other side is gone",
          r"gencli: the next call: the other side is gone",
          r"gencli: reconnected to instance 1, which answers 1: PASS",
          r"init: leak check: .*: PASS"],
         bootargs="init.run=gensvc*1,gencli@1"),
    # A client outlives ten instances of its service: blk_mortal's first ten instances each
    # fault at their third submission, each having watched blklives' process (PROCESS_WATCH)
    # with its own notification; the watch ends with the instance. blklives writes and reads
    # back a round's pattern through every instance. When a dead watcher's watch stayed, the
    # fourth instance's BLK_OPEN was EBUSY (init's watch and three dead ones filled the four).
    case("blk-client-outlives-restarts",
         [r"blk_mortal: instance 9: submission 3; faulting",
          r"blklives: \d+ rounds, reached instance 10 \(10 reconnects\), 0 bytes read back "
          r"wrong \(success\): PASS",
          r"init: power off requested by blklives"],
         bootargs="init.run=blk_mortal=blk:virtio-blk*10,^blklives@1[blk=0-99]",
         smp=2, qemu_args=DEFAULT_DEVICES[2:], needs=DEFAULT_NEEDS, timeout=60),
    # A process watch ends by badge 0 and with its notification: watchends fills its four
    # places (init's and three of its own), and the refused fifth gets a place after each end.
    case("process-watch-ends",
         [r"watchends: four places full: object busy; after badge 0: success; badge 0 again: "
          r"success; full again: object busy; after a notification's end: success: PASS",
          r"init: leak check: .*: PASS"],
         bootargs="init.run=watchends"),
    # A DMA frame that outlives its driver's device release: pinhand's instance 0 pins a
    # 4-page frame to virtio-rng, sends pinkeep a copy and ends; init quiets and releases the
    # device, then starts instance 1, which tells pinkeep, which deletes the frame: its pages
    # go back to the pool (they went into the device's quarantine for good: 0 pages back, and
    # init's leak check FAIL when nothing released the device again).
    case("pinned-frame-outlives-release",
         [r"pinhand: instance 0: a 4-page frame pinned to the device \(yes\), sent to pinkeep "
          r"\(success\); ending",
          r"init: pinhand's devices: 1 reset, \d+ pages back from their DMA quarantine",
          r"pinhand: instance 1: told pinkeep its driver's device was released \(success\)",
          r"pinkeep: the frame pinned by pinhand's instance 0, deleted after the device's "
          r"release: 4 pages back to the pool \(success\): PASS",
          r"init: leak check: .*: PASS"],
         bootargs="init.run=pinkeep,pinhand:virtio-rng*1",
         qemu_args=DEFAULT_DEVICES[:2]),
    # A driver dies with its device's interrupt armed: init quiets the goldfish RTC
    # (alarm cleared, interrupt disabled) before the restart, which finds both off (1 and 1
    # without init's quieting).
    # Contiguous memory cannot be denied: scatter holds
    # single pages where 129-page frames left room, one a MiB, round after round (with the
    # pool's two kinds of chunks mixed, 120-odd pages left no 1 MiB run and its 129-page frame
    # was refused); dmabig's 1 MiB frame must still come, and scatter keeps getting 129-page
    # frames until it has 160 pages.
    case("scatter-keeps-runs",
         [r"scatter: holding 160 single pages after \d+ rounds; a 129-page frame now: made",
          r"dmabig: a 256-page frame beside scatter's pages: made: PASS",
          r"init: leak check: .*: PASS"],
         bootargs="init.run=scatter,dmabig@1", timeout=60),
    # An endpoint watched by many (ENDPOINT_WATCH, under the BKL hold's bound): its end tells
    # 16 watchers a step as the reaper runs, not all in one hold of the BKL; watchmany's
    # 100 notifications each get their own badge, and everything comes back.
    case("endpoint-watchers-in-steps",
         [r"watchmany: 100 of 100 watchers told of the endpoint's end \(success\): PASS",
          r"init: leak check: .*: PASS"],
         bootargs="init.run=watchee,watchmany@1"),
    # An endpoint's end with 1,000 threads receiving on it, and another's with 200 calling it:
    # every thread comes back with EDEAD, woken 16 a step as the reaper runs; on one hart under
    # -icount the kernel's own longest hold is exact, and stays under 5,000 instructions (all
    # woken in one step: about 150 a thread, 180,000).
    case("endpoint-end-in-steps",
         [r"epwaiters: 1000 threads receive, 200 call; ending both endpoints",
          r"epwaiters: 1200 of 1200 threads woken with EDEAD, 0 otherwise; longest BKL hold "
          r"\d+ instructions: PASS",
          r"init: leak check: .*: PASS"],
         bootargs="init.run=epwaiters", smp=1, icount=True, timeout=120,
         check=lambda out: hold_over(out, "epwaiters", 5000)),
    # A process ends while a thread of it is held back inside MAP or UNMAP for a more urgent
    # one of its hart: the mapping so far, or what was left to unmap, goes with the process
    # (init's leak check finds every page back). The wake-ups landed inside the calls: main
    # ran while the calls were held, not after them.
    case("map-held-when-ended",
         [r"mapdie: woke 40 times: [1-9]\d* in MAP, [1-9]\d* in UNMAP, \d+ between; "
          r"faulting with the call held",
          r"init: server mapdie faulted: cause 15",
          r"tacet: process mapdie ended \(status -7\)",
          r"init: leak check: .*: PASS"],
         bootargs="init.run=mapdie@1", status=1, icount=True, timeout=120),
    case("device-quiet-on-death",
         [r"rtcdie: instance 0: interrupt enabled 0, alarm running 0 at start",
          r"rtcdie: alarm armed 10 s ahead, interrupt enabled; faulting",
          r"init: rtcdie's devices: 1 reset, 0 pages back from their DMA quarantine",
          r"(?s)init: restarting rtcdie \(restart 1\).*rtcdie: instance 1: interrupt enabled 0, "
          r"alarm running 0 at start",
          r"init: server rtcdie finished with status 0",
          r"init: leak check: .*: PASS"],
         bootargs="init.run=rtcdie:goldfish-rtc*1", status=0),
    # What init writes to a dead driver's device is the driver's own description, from its
    # image: quietown's marks the 16550's scratch register, which its restart reads back (0x11,
    # the dead instance's, when init quiets the 16550 its own way). quietbad's writes past the
    # device's registers too: refused whole, said, nothing written (the restart finds 0x11).
    case("device-quiet-own-description",
         [r"quietown: instance 0: scratch (0|0x[0-9a-f]+) at start",
          r"quietown: scratch set to 0x11; faulting",
          r"init: quietown's devices: 1 reset, 0 pages back from their DMA quarantine",
          r"(?s)init: restarting quietown \(restart 1\).*quietown: instance 1: scratch 0x5a at "
          r"start",
          r"init: server quietown finished with status 0",
          r"init: leak check: .*: PASS"],
         bootargs="init.run=quietown:ns16550a*1", status=0),
    case("device-quiet-bad-description",
         [r"quietbad: scratch set to 0x11; faulting",
          r"init: quietbad: ns16550a at 0x10000000 not quieted: its description refused, "
          r"nothing written: an offset outside the device's registers",
          r"(?s)init: restarting quietbad \(restart 1\).*quietbad: instance 1: scratch 0x11 at "
          r"start",
          r"init: server quietbad finished with status 0",
          r"init: leak check: .*: PASS"],
         bootargs="init.run=quietbad:ns16550a*1", status=0, forbid=(r"PANIC", r"FAIL", r"quietbad's devices")),
    # A driver dies with DMA in flight: dmadie offers virtio-rng a buffer and faults.
    # Its DMA frames (rings, buffer), pinned to the device, go to the device's quarantine, not
    # back to the pool; init resets the device (Status 0) and only then releases them; the
    # restarted instance finds the device reset. Everything back at the end (leak check).
    case("dma-quarantine",
         [r"dmadie: instance 0: device status 0 at start, buffer of 2 pages at 0x[0-9a-f]+ "
          r"offered \(pinned: yes\); faulting with the device running",
          r"init: server dmadie faulted: cause 15",
          r"init: dmadie's devices: 1 reset, \d+ pages back from their DMA quarantine",
          r"(?s)init: restarting dmadie \(restart 1\).*dmadie: instance 1: device status 0 "
          r"at start",
          r"init: server dmadie failed \(status -7\) after 1 restarts; giving up",
          r"init: leak check: .*: PASS"],
         bootargs="init.run=dmadie:virtio-rng*1", status=1, check=quarantine_whole,
         qemu_args=("-device", "virtio-rng-device")),
    # Drivers killed with DMA in flight, each watched by a canary that takes every
    # free page at the death and checks them once the driver is back: see DMA_KILL below.
    *DMA_KILL,
    # Forged kernel messages: every label the kernel reserves (TACET_LABEL_NOTIFY, _FAULT, ...)
    # sent to init, the console and pci is refused; a reply with one too. None of the three
    # acts on a forgery: init does not power off ("every server ended"), pci keeps the claim
    # ("its driver ended"), the console still writes; the edu line still works.
    case("forge-kernel-labels",
         [rf"forger: init: {LABELS}", rf"forger: console: {LABELS}", rf"forger: pci: {LABELS}",
          r"forger: a bound notification's bits come before a queued call: PASS",
          r"forger: then the call: PASS",
          r"forger: a reply with TACET_LABEL_NOTIFY is refused with EINVAL: PASS",
          r"forger: a reply with TACET_LABEL_FAULT is refused with EINVAL: PASS",
          r"forger: the caller still gets a plain reply: PASS",
          r"forger: console still writes\n",
          r"forger: the console still answers a write: PASS",
          r"forger: pci still holds the claim \(a second claim is EBUSY\): PASS",
          r"forger: the edu interrupt still arrives: PASS",
          r"forger: all checks passed",
          r"init: power off requested by forger"],
         bootargs=f"{PCI_RUN},^forger", qemu_args=("-device", "edu"),
         forbid=(r"PANIC", r"FAIL", r"init: all \d+ servers done", r"released")),
    # Least privilege: what lookup gives cannot receive (nor can any copy of it); publishing
    # READ is refused; pci gives a claimed device's interrupt only to its driver and takes only
    # a rights-less (watch-only) process capability. An edu driver floods its line meanwhile
    # (25,000 interrupts: long enough that the thief acts while the device is claimed) and
    # loses nothing.
    case("least-privilege",
         # (the console server's first lines may cut into the thief's: spliced())
         [spliced('thief: "console" comes without READ (rights 0x2): PASS'),
          spliced('thief: "pci" comes without READ (rights 0x6): PASS'),
          spliced('thief: receive on "console" -> EPERM: PASS'),
          spliced('thief: receive on "pci" -> EPERM: PASS'),
          spliced('thief: reply_recv on "pci" -> EPERM: PASS'),
          spliced('thief: a copy of "pci" asking for all rights gets no READ: PASS'),
          spliced("thief: publishing with READ for clients -> EINVAL: PASS"),
          spliced("thief: PCI_IRQ for the device another driver claimed -> EPERM, nothing sent: "
                  "PASS"),
          spliced("thief: PCI_MASTER for the device another driver claimed -> EPERM: PASS"),
          spliced("thief: PCI_BAR for the device another driver claimed -> EPERM, nothing sent: "
                  "PASS"),
          spliced("thief: PCI_CONFIG for the device another driver claimed -> EPERM: PASS"),
          spliced("thief: PCI_CLAIM of that device -> EBUSY: PASS"),
          spliced("thief: pci refuses a process capability with rights (EPERM): PASS"),
          spliced("thief: it holds one process capability (its own) and nothing that receives: "
                  "PASS"),
          spliced("thief: all checks passed"),
          r"edu 0: raised 25000, handled 25000 \(0 for other devices\), 20 moves, "
          r"\d+ uneven phases: PASS",
          r"init: power off requested by uart"],
         bootargs=f"{PCI_RUN},edu_flood@1,thief@2", qemu_args=("-device", "edu"),
         console_input=(r"(?s)(thief: all checks passed.*edu 0: raised [^\n]*\n|"
                        r"edu 0: raised [^\n]*\n.*thief: all checks passed)", "poweroff\r"),
         timeout=120),
    # Kernel memory accounted: the hog (its budget 1024 pages, init.budget=) takes frames,
    # mappings of one frame and threads until ENOMEM, each time at its own limit; meanwhile the
    # victim (same budget, its own) creates 400 objects each time without one failure. Each
    # way the hog gives back returns its account to where it was; init's leak check then finds
    # every page and object of the machine back.
    case("memory-budget-hog",
         [r"hog: budget 4096 KiB, \d+ KiB used at the start",
          r"hog: frames: \d+ until out of memory \(budget\), \d+ of 4096 KiB used: PASS",
          r"victim: while the hog held all its frames: 400 creations, 0 failed: PASS",
          r"hog: frames given back: .*: PASS",
          r"hog: mappings of one frame: \d+ until out of memory \(budget\), \d+ of 4096 KiB "
          r"used: PASS",
          r"victim: while the hog held all its mappings: 400 creations, 0 failed: PASS",
          r"hog: mappings given back: .*: PASS",
          r"hog: threads: \d+ until out of memory \(budget\), \d+ of 4096 KiB used: PASS",
          r"victim: while the hog held all its threads: 400 creations, 0 failed: PASS",
          r"hog: threads given back: .*: PASS",
          r"hog: all checks passed",
          r"init: server hog finished with status 0", r"init: server victim finished with status 0",
          r"init: leak check: .*: PASS", r"init: all 2 servers done; powering off"],
         bootargs="init.run=hog@1,victim@2 init.budget=1024", timeout=120),
    # Restart: the console server crashes (the shell's `crash`) while chatter writes through
    # it; init restarts it (^%uart=console:ns16550a*3), chatter's blocked write gets EDEAD and
    # lib reconnects to the new instance: no printf fails, and the shell answers again.
    # squatter tries to publish "console" one call after the other meanwhile, the restart's gap
    # included, and is refused with EPERM each time: the name is the console server's, kept for
    # its restart.
    case("restart-console",
         [r"crashing the console server",
          r"init: server uart faulted: cause 15 at pc 0x[0-9a-f]+, address 0x0",
          r"init: server uart failed \(status -7\); restarting it in 1 ms \(restart 1 of 3\)",
          r"init: restarting uart \(restart 1\)",
          r"(?s)init: restarting uart.*uart: console ready",
          # the shell's answer and chatter's result (the console server) and squatter's (the
          # kernel's debug output) come while the others print: each may be cut into
          RESTART_BACK, r"(?s)init: restarting uart.*chatter: line \d+", RESTART_CHATTER,
          RESTART_SQUATTER,
          r"init: power off requested by uart"],
         bootargs="init.run=^%uart=console:ns16550a*3,chatter@1,squatter@2",
         # (what QEMU prints has \r\n line ends: the steps' patterns allow for them)
         console_input=[(r"chatter: line 20\r?\n", "crash\r"),
                        (r"(?s)init: restarting uart.*console ready; type help\r?\ntacet> ",
                         "echo back again\r"),
                        (restart_all_said, "poweroff\r")],
         timeout=60),
    # A driver that faults on every 100th interrupt of its edu device is restarted 50 times:
    # each instance finds the device working and every interrupt delivered once (the line's
    # count is a whole number of rounds when it starts), and the system's memory is the same
    # at every restart (a figure from restart 2 equals the one from restart 50).
    case("restart-edu-50",
         [r"edu_crash: instance 0: 99 interrupts handled, each delivered once; faulting on "
          r"interrupt 100: PASS",
          r"edu_crash: instance 50: 99 interrupts handled, each delivered once; faulting on "
          r"interrupt 100: PASS",
          r"init: server edu_crash failed \(status -7\) after 50 restarts; giving up",
          r"init: restarting edu_crash \(restart 2\): free pages (\d+), object caches (\d+), "
          r"kernel objects (\d+)[\s\S]*init: restarting edu_crash \(restart 50\): "
          r"free pages \1, object caches \2, kernel objects \3",
          r"init: power off requested by uart"],
         bootargs=f"{PCI_RUN},edu_crash@1*50", qemu_args=("-device", "edu"),
         console_input=(r"giving up", "poweroff\r"), timeout=120),
    # The same driver with init.restart_max_ms=0 (the fault campaign's setting, where every
    # end is thrown on purpose): each restart at once, without the pause that doubles while a
    # server keeps failing soon after its start (1, 2, 4... ms by default), and the memory the
    # same at every restart.
    case("restart-no-pause",
         [r"edu_crash: instance 10: 99 interrupts handled, each delivered once; faulting on "
          r"interrupt 100: PASS",
          r"init: server edu_crash failed \(status -7\); restarting it in 0 ms \(restart 2 of "
          r"10\)",
          r"init: server edu_crash failed \(status -7\); restarting it in 0 ms \(restart 10 of "
          r"10\)",
          r"init: server edu_crash failed \(status -7\) after 10 restarts; giving up",
          r"init: restarting edu_crash \(restart 2\): free pages (\d+), object caches (\d+), "
          r"kernel objects (\d+)[\s\S]*init: restarting edu_crash \(restart 10\): "
          r"free pages \1, object caches \2, kernel objects \3",
          r"init: power off requested by uart"],
         bootargs=f"{PCI_RUN},edu_crash@1*10 init.restart_max_ms=0", qemu_args=("-device", "edu"),
         console_input=(r"giving up", "poweroff\r"), timeout=120),
]

# init's authority, with hostile servers beside a default boot's drivers (the overlay's
# init.run=: the console with `^`, the only server that may power off): init.run= grants each
# name to one server, and refuses a publish of anyone else's with EPERM (namesquat, listed first
# and last); it refuses a power-off from a server without `^` (powerthief); a server gets at most
# four names, all withdrawn at its end and kept for its restart (namehog). Each case then types
# into the shell, each command once the line before it has come, and the first once every line
# the hostile server makes init or the kernel print is out (one of them would cut into the
# echo): `random` and `date` must be answered by the real drivers (the impostor would say
# 4141...41 and 2000-01-01). (The prompt may come before the hostile server's lines: the echo
# is looked for without it.)
DRIVERS = "rng/110:virtio-rng*3,^%uart=console:ns16550a*5,rtc:goldfish-rtc,blk/110:virtio-blk"
ECHO = r"(?:\n|tacet> )"  # where a command's echo starts
RANDOM_REAL = ECHO + r"random\n(?!(?:41){16}\n)[0-9a-f]{32}\n"
DATE_REAL = ECHO + r"date\n(?!2000-01-01)\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC\n"
SHELL_STEPS = [(ECHO + r"random\r?\n[0-9a-f]{32}\r?\n", "date\r"),
               (ECHO + r"date\r?\n[^\n]*\r?\n", "poweroff\r")]
# no driver fails (a publish refused: `uart: cannot publish "console"`, and ends) and nobody but
# the console powers off
AUTHORITY_FORBID = (r"PANIC", r"FAIL", r"cannot publish",
                    r"init: server (rng|uart|rtc|blk) (finished|faulted|failed)",
                    r"power off requested by (?!uart)")
SQUAT_PASS = spliced("namesquat: ", r"\d+", " tries, 0 took a name, each refused with EPERM: PASS")
SQUAT_REFUSED = (r'init: refused: namesquat may not publish "(rng|rtc|blk|console|pci)" '
                 r'\(init.run= grants it to (rng|rtc|blk|uart|no server)\)')
POWER_PASS = spliced("powerthief: 100 requests to power off, each refused with EPERM; the "
                     "machine still runs: PASS")
EPERM_SAID = "capability lacks a needed right"
TRACE_PASS = spliced(f"tracethief: trace stop: {EPERM_SAID}; with init's endpoint: {EPERM_SAID}; "
                     f"trace read: {EPERM_SAID}; ", r"\d+", " lines, ", r"[1-9]\d*",
                     " fired, 0 showed timing: PASS")
# the last line init says of powerthief, namehog: its refusals not said one by one
POWER_COUNTED = r"init: refused: \d+ more requests of powerthief, not said one by one\n"
HOG_COUNTED = r"(?s)(init: refused: \d+ more requests of namehog, not said one by one\n.*){2}"
HOG_PASS = spliced("namehog: 4 of 16 names published, 12 refused with EPERM, nh.0 again EEXIST: "
                   "PASS")


def said_at_prompt(result, *also):
    """A console step: the shell's first prompt is out, and so are result (a spliced() line)
    and the regular expressions also, or a FAIL (typed on anyway: the case fails on its
    expectations)."""
    def ready(out):
        out = out.replace("\r\n", "\n")
        return "tacet> " in out and ("FAIL" in out or (
            result(out) and all(re.search(a, out) for a in also)))
    ready.__name__ = " and ".join([f"the prompt and {result}", *(f"/{a}/" for a in also)])
    return ready


def powerthief_refusals_counted(out):
    """init said powerthief's refusals at most a line a second, and counted every one of its 100:
    the lines said, the `(and N more refused since)` in them, and the `N more` at its end."""
    said = re.findall(r"init: refused: powerthief may not power the machine off \(its init.run= "
                      r"entry has no \^\)(?: \(and (\d+) more refused since\))?\n", out)
    ends = re.findall(r"init: refused: (\d+) more requests of powerthief, not said one by one\n",
                      out)
    total = len(said) + sum(int(n or 0) for n in said) + sum(int(n) for n in ends)
    problems = [] if total == 100 else [f"init accounted for {total} of powerthief's 100 refusals"]
    if len(said) > 3:
        problems.append(f"init said {len(said)} lines of powerthief's refusals (at most one a "
                        f"second: it asked for a few milliseconds)")
    return problems


CASES += [
    # namesquat listed first (its five first tries wait at init before any driver's publish,
    # and it goes on until they have all published) and last (up while the drivers come up,
    # and once more after they published): refused each time with EPERM; the drivers publish;
    # the shell is there.
    *(case(f"names-squatter-{where}",
           [SQUAT_PASS, SQUAT_REFUSED, r"uart: console ready", RANDOM_REAL, DATE_REAL,
            r"init: power off requested by uart"],
           bootargs=f"init.run={run}", qemu_args=DEFAULT_DEVICES,
           needs=DEFAULT_NEEDS, forbid=AUTHORITY_FORBID,
           console_input=[(said_at_prompt(SQUAT_PASS), "random\r"), *SHELL_STEPS], timeout=30)
      for where, run in (("first", f"namesquat@1,{DRIVERS}"), ("last", f"{DRIVERS},namesquat@1"))),
    # powerthief asks 100 times to power off: refused, said once, counted; the shell still
    # answers, and its `poweroff` works (the console's entry has `^`).
    case("poweroff-refused",
         [POWER_PASS, r"init: server powerthief finished with status 0",
          ECHO + r"echo still here\n+still here\n", r"init: power off requested by uart"],
         bootargs=f"init.run={DRIVERS},powerthief@1", qemu_args=DEFAULT_DEVICES,
         needs=DEFAULT_NEEDS, forbid=AUTHORITY_FORBID, check=powerthief_refusals_counted,
         console_input=[(said_at_prompt(POWER_PASS, POWER_COUNTED), "echo still here\r"),
                        (ECHO + r"echo still here\r?\n+still here\r?\n", "poweroff\r")],
         timeout=30),
    # tracethief, without `%`: TRACE (its slot empty, then init's endpoint there) and
    # INFO_TRACE refused with EPERM, every line's counts but none's timing (it asked rng for
    # bytes first: a line fired); the trace still records, and the console's `trace dump`
    # (its entry has `%`) still reads it.
    case("trace-authority-refused",
         [TRACE_PASS, r"init: server tracethief finished with status 0",
          r"TRACE ring 0 capacity [1-9]\d* count [1-9]\d* dropped", r"TRACE end \d+",
          r"init: power off requested by uart"],
         bootargs=f"trace=on init.run={DRIVERS},tracethief@1", qemu_args=DEFAULT_DEVICES,
         needs=DEFAULT_NEEDS, forbid=AUTHORITY_FORBID,
         console_input=[(said_at_prompt(TRACE_PASS), "trace dump\r"),
                        (r"TRACE end \d+[^\n]*\n", "poweroff\r")],
         timeout=30),
    # namehog, listed first and restarted once, publishes 16 names where it is granted 4; an
    # entry granted five is not started. The drivers all publish; the shell answers.
    case("names-quota",
         [r"init: hello: more than 4 names; not starting hello", HOG_PASS,
          r"init: restarting namehog \(restart 1\)",
          r"init: server namehog failed \(status 1\) after 1 restarts; giving up",
          r"uart: console ready", RANDOM_REAL, DATE_REAL, r"init: power off requested by uart"],
         bootargs=f"init.run=namehog=nh.0+nh.1+nh.2+nh.3@1*1,{DRIVERS},"
                  "hello=q.0+q.1+q.2+q.3+q.4",
         qemu_args=DEFAULT_DEVICES, needs=DEFAULT_NEEDS, forbid=AUTHORITY_FORBID,
         console_input=[(said_at_prompt(HOG_PASS, r"giving up\n", HOG_COUNTED), "random\r"),
                        *SHELL_STEPS], timeout=30),
]
