"""cases_virtio.py: init's device matching and ownership (a device goes to one server; virtio
devices by their device ID; compatibles with a comma), the virtio-rng driver and the virtio
library under it, and the virtio-blk driver's block service."""
import os

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

RNG = ("-device", "virtio-rng-device")
NOT_STARTED = r"init: 1 of the servers in init.run= could not start"

CASES = [
    # One device, two servers asking for it: the first gets it, the second is not started and
    # init names both; the machine ends with a failure status since one entry failed.
    case("init-device-one-owner",
         [r"devlist: 1 devices\n", r"devlist: google,goldfish-rtc at 0x101000 irq 11\n",
          r"init: hello: device google,goldfish-rtc at 0x101000 belongs to devlist; "
          r"not starting hello", r"init: cannot start hello: ", NOT_STARTED,
          r"init: leak check: .*: PASS", r"init: all 1 servers done \(some failed\)"],
         bootargs="init.run=devlist:goldfish-rtc,hello:goldfish-rtc", smp=2, status=1,
         forbid=(r"PANIC", r"hello from user space")),
    # A device nobody has: the error names it.
    case("init-device-unmatched",
         [r'init: hello: no device matches "no-such-device"\n', r"init: cannot start hello: ",
          r"devlist: 1 devices", NOT_STARTED, r"init: leak check: .*: PASS"],
         bootargs="init.run=hello:no-such-device,devlist:goldfish-rtc", smp=2, status=1,
         forbid=(r"PANIC", r"hello from user space")),
    # By virtio device ID: only the transport whose DeviceID is 4 (of the eight), read by init.
    case("init-virtio-id",
         [r"devlist: 1 devices\n",
          r"devlist: virtio,mmio at 0x1000[1-8]000 irq [1-8], magic 0x74726976 version 2 "
          r"virtio device 4\n", r"init: all 1 servers done; powering off"],
         bootargs="init.run=devlist:virtio-rng", smp=2, qemu_args=RNG),
    # Two entropy devices: both transports with ID 4, to one server; a second asking is refused.
    case("init-virtio-id-two",
         [r"devlist: 2 devices\n",
          r"(?s)(devlist: virtio,mmio at 0x1000[1-8]000 irq [1-8], magic 0x74726976 "
          r"version 2 virtio device 4\n.*){2}",
          r"init: hello: device virtio,mmio at 0x1000[1-8]000 belongs to devlist; "
          r"not starting hello", NOT_STARTED],
         bootargs="init.run=devlist:virtio-rng,hello:virtio-rng", smp=2, status=1,
         qemu_args=RNG + RNG, forbid=(r"PANIC", r"hello from user space")),
    # A virtio ID with no such device attached (an entropy source is; no block device).
    case("init-virtio-id-absent",
         [r'init: devlist: no device matches "virtio-blk" \(no virtio-mmio transport has '
          r'device ID 2\)\n', r"init: no server could start \(1 failed\); powering off"],
         bootargs="init.run=devlist:virtio-blk", smp=2, status=1, qemu_args=RNG, timeout=10),
    # A compatible with a comma in init.run: all eight transports, whole and vendor-less
    # compatibles mixed, then another entry after the comma that names a module.
    case("init-compatible-comma",
         [r"devlist: 9 devices\n", r"devlist: google,goldfish-rtc at 0x101000 irq 11\n",
          r"(?s)(devlist: virtio,mmio at 0x1000[1-8]000 irq [1-8], magic 0x74726976 "
          r"version 2 virtio device [04]\n.*){8}",
          r"hello: libc ok", r"init: all 2 servers done; powering off"],
         bootargs="init.run=devlist:google,goldfish-rtc+virtio,mmio*1,hello", smp=2,
         qemu_args=RNG),
    # Nothing could start (no such module; a device nobody has): init powers off with a
    # failure status instead of waiting for servers that do not exist.
    case("init-no-server-starts",
         [r'init: no module "nosuchserver"', r'init: hello: no device matches "nothing"',
          r"init: no server could start \(2 failed\); powering off"],
         bootargs="init.run=nosuchserver,hello:nothing", smp=2, status=1, timeout=10),
]

RNG_READY = (r"rng: virtio entropy device \(mmio\) on line [1-8], 8 requests of 64 bytes offered, "
             r"event idx")
STATS = (r"rngtest {}: \d+ requests completed \(\d+ in flight\), (\d+) interrupts handled, \1 "
         r"on the line: PASS")
BYTES = (r"rngtest {}: 4096 bytes, 2[4-5]\d distinct values, the commonest \d+ times, first "
         r"bytes [0-9a-f]{{16}}: PASS")



def stats_seen(n):
    """The output once n clients have printed their interrupt counts."""
    return r"(?s)(rngtest \d: \d+ requests completed[^\n]*\n.*){%d}" % n


RNG_RUN = "init.run=^%uart=console:ns16550a,rng:virtio-rng"

CASES += [
    # A client asks for 4096 bytes: it gets them all, spread over the byte values; the driver
    # handled every interrupt of its line, no more than the requests the device completed.
    case("rng-4096",
         [RNG_READY, BYTES.format(2), STATS.format(2),
          r"init: server rngtest finished with status 0", r"init: power off requested by uart"],
         bootargs=f"{RNG_RUN},rngtest@1", smp=2, qemu_args=RNG,
         console_input=(stats_seen(1), "poweroff\r"), variants=CONTROLLERS),
    # Two clients at once, on two other harts: each gets its 4096 bytes, and not the same ones.
    case("rng-two-clients",
         [RNG_READY, BYTES.format(2), BYTES.format(3), STATS.format(2), STATS.format(3),
          r"(?s)rngtest \d: 4096 bytes[^\n]* first bytes ([0-9a-f]{16}): PASS\n.*"
          r"rngtest \d: 4096 bytes[^\n]* first bytes (?!\1)[0-9a-f]{16}: PASS",
          r"(?s)(init: server rngtest finished with status 0.*){2}",
          r"init: power off requested by uart"],
         bootargs=f"{RNG_RUN},rngtest@1,rngtest@2", smp=3, qemu_args=RNG,
         console_input=(stats_seen(2), "poweroff\r"), variants=CONTROLLERS),
]

# The same driver and client over virtio-pci: no virtio-mmio transport for rng in init.run=, so
# the kit's probe claims the entropy function from the PCI server (transitional, 1af4:1005, on
# the root bus: its BAR0 is legacy I/O, its structures in BAR4), walks its capabilities and
# takes its interrupt: INTx on the PLIC's machine; on the AIA's, MSI-X vector 0 (the first
# message-signalled line, 97, on the driver's hart), which queue 0 signals. Every interrupt of
# the line is the driver's, and each one it handled found the ISR set.
PCI_RUN = "init.run=^%uart=console:ns16550a,pci:pci-host-ecam-generic+pci-mmio32+pci-intx"
RNG_PCI = ("-device", "virtio-rng-pci,addr=2")
RNG_PCI_READY = (r"rng: virtio entropy device \(pci\) on line 3[2-5], 8 requests of 64 bytes "
                 r"offered, event idx")
RNG_PCI_LINE = {"aclint": r"pci: 00:02.0 INTx on",
                "aia": r"pci: 00:02.0 vector 0: line 97, hart \d+\n"}
RNG_PCI_READY_ON = {"aclint": RNG_PCI_READY,
                    "aia": RNG_PCI_READY.replace("on line 3[2-5]", "on line 97")}

CASES += [
    case("rng-pci-4096",
         [r"pci: 00:02.0 1af4:1005 class 00ff00 bar0 none bar1 0x[0-9a-f]+ size 0x1000 bar4 "
          r"0x[0-9a-f]+ size 0x4000 irq 3[2-5]",
          r"pci: 00:02.0 bus mastering on", RNG_PCI_LINE, RNG_PCI_READY_ON,
          BYTES.format(3), STATS.format(3),
          r"init: server rngtest finished with status 0", r"init: power off requested by uart"],
         bootargs=f"{PCI_RUN},rng,rngtest@1", smp=2, qemu_args=RNG_PCI,
         console_input=(stats_seen(1), "poweroff\r"), variants=CONTROLLERS),
    # A modern-only function (1af4:1044: no legacy BAR0, no transitional ID): claimed by the
    # modern device ID, the same structures.
    case("rng-pci-modern",
         [r"pci: 00:02.0 1af4:1044 class 00ff00 bar0 none bar1 0x[0-9a-f]+ size 0x1000 bar4 "
          r"0x[0-9a-f]+ size 0x4000 irq 3[2-5]",
          RNG_PCI_READY, BYTES.format(3), STATS.format(3),
          r"init: server rngtest finished with status 0", r"init: power off requested by uart"],
         bootargs=f"{PCI_RUN},rng,rngtest@1", smp=2,
         qemu_args=("-device", "virtio-rng-pci,addr=2,disable-legacy=on"),
         console_input=(stats_seen(1), "poweroff\r")),
    # The PCI server ends under a driver it granted a function to: pcigone reads 4096 bytes,
    # has init end pci's instance (INIT_STUCK: its entry is granted "pci", pci's has `~MS`),
    # waits for the next instance (which has quieted every function: rng's requests will not
    # complete) and reads again. rng's claim lives no longer than the instance that granted
    # it: lib's kit ends rng with a line, init restarts it, the next rng claims the function
    # from the next pci and the read is answered. Without that the second read waits for
    # ever (rng waits for its quiet device inside the call). As many message-signalled lines
    # are lent after as before: the ended pci's lendings end with it (before, on the AIA's
    # machine rng's first vector stayed lent for good, one line of the pool lost a restart).
    case("rng-pci-bus-ends",
         [RNG_PCI_READY_ON,
          r"pcigone: before pci's end: 4096 bytes in \d+ ms, \d+ distinct values: PASS",
          r"pcigone: pci instance 0 reported to init: ended",
          {v: r"init: a client of pci says it left a request unanswered; ending it\n[\s\S]*"
              r"rng: the pci instance that granted its device ended; ending\n[\s\S]*"
              r"init: server rng failed \(status 3\); restarting it[\s\S]*"
              r"pci: 00:02.0 claimed[\s\S]*" + RNG_PCI_READY_ON[v].replace("97", r"9\d")
           for v in CONTROLLERS},
          r"pci: instance 1: every function quiet; \d+ pages back from the window's DMA "
          r"quarantine",
          r"pcigone: pci instance 1 answers",
          r"pcigone: after pci's end: 4096 bytes in \d+ ms, \d+ distinct values: PASS",
          r"pcigone: rng served again within 5000 ms of pci's next instance: PASS",
          {"aclint": r"pcigone: message-signalled lines lent: 0 before pci's end, 0 after: PASS",
           "aia": r"pcigone: message-signalled lines lent: 1 before pci's end, 1 after: PASS"},
          r"init: server pcigone finished with status 0", r"init: power off requested by uart"],
         bootargs="init.run=^%uart=console:ns16550a,"
                  "pci:pci-host-ecam-generic+pci-mmio32+pci-intx*1~1000,rng*2,pcigone@1[pci=0]",
         smp=2, qemu_args=RNG_PCI,
         console_input=(r"init: server pcigone finished[^\n]*\n", "poweroff\r"), timeout=60,
         variants=CONTROLLERS),
    # pci answers while it releases a dead driver's function: rng_dying dies with its buffers
    # offered (QEMU's entropy limited to 1024 bytes a second: rngtest's read waits for it); pci
    # quiets the function and leaves it 100 ms (it has no function-level reset) before the DMA
    # quarantine goes, on a timer, its loop answering meanwhile, so init's liveness question (`~80`)
    # is answered and pci is not ended; rng's next instance claims the function once it is free and
    # rngtest's read is answered. Without it pci slept in its loop: ended for not answering, with
    # rng's next instance, which claimed from it.
    case("pci-answers-while-releasing",
         [r"rng_dying: instance 0: a read waits for the device, which holds [1-8] buffers; "
          r"faulting",
          r"pci: 00:02.0 released \(its driver ended\), command 0x0402",
          r"pci: 00:02.0 no function-level reset \(it has none\); [2-9] pages back from its DMA "
          r"quarantine",
          r"rng: instance 1: the device's Status was 0xb at start", BYTES.format(3),
          r"init: power off requested by uart"],
         bootargs="init.run=^%uart=console:ns16550a,"
                  "pci:pci-host-ecam-generic+pci-mmio32+pci-intx*1~80,rng_dying=rng*1,rngtest@1",
         smp=2, forbid=(r"PANIC", r"init: server pci has not answered"),
         qemu_args=("-object", "rng-random,filename=/dev/urandom,id=slowrng", "-device",
                    "virtio-rng-pci,rng=slowrng,max-bytes=1024,period=1000,addr=2"),
         console_input=(r"rngtest 3: 4096 bytes[^\n]*\n", "poweroff\r"), timeout=60,
         variants=CONTROLLERS),
]

# The block service (servers/blk) on the disks the Makefile makes (servers/blk/module.mk):
# byte i of sector n is (13 n + i) % 251 on each.
DISK = "build/blk-test.img"        # 128 sectors; snapshot=on or read-only
PERSIST = "build/blk-persist.img"  # a fresh copy of it at every make: the writes stay
BIG = "build/blk-big.img"          # 2048 sectors; snapshot=on


def disk(path=DISK, readonly=False, snapshot=True, device="virtio-blk-device"):
    drive = f"file={path},if=none,format=raw,id=disk0" + (",snapshot=on" if snapshot else "")
    return ("-drive", drive + (",readonly=on" if readonly else ""),
            "-device", f"{device},drive=disk0")


# The 1 MiB disk with reads throttled to 1,000 a second (QEMU's throttling applies to reads
# and writes, not flushes): the device then holds a read about as long as a disk would.
THROTTLED = ("-drive", f"file={BIG},if=none,format=raw,id=disk0,snapshot=on,"
             "throttling.iops-read=1000",
             "-device", "virtio-blk-device,drive=disk0")


def made(n, i):
    """Byte i of sector n as the Makefile made the disk."""
    return (13 * n + i) % 251


def written(n, i):
    """Byte i of sector n as servers/tests/blktest.c writes it."""
    return ((n * 7 + i) ^ 0xa5) & 0xff


def persisted(out):
    """After power-off: build/blk-persist.img holds blktest's patterns in sectors 5, 64-79 and
    127, every other sector as made, and is as long as before."""
    with open(os.path.join(ROOT, PERSIST), "rb") as f:
        data = f.read()
    if len(data) != 128 * 512:
        return [f"{PERSIST} is {len(data)} bytes, not {128 * 512}"]
    wrong = [n for n in range(128)
             if data[n * 512:(n + 1) * 512] != bytes(
                 (written if n in (5, 127) or 64 <= n < 80 else made)(n, i) for i in range(512))]
    return [f"{PERSIST}: sectors {wrong} do not hold what blktest wrote or what was there"] \
        if wrong else []


BLK_READY = (r"blk: virtio block device \(mmio\), {} sectors of 512 bytes{}, 40 requests in "
             r"flight\n")
BLK_READS = [r"blktest: read before attaching a frame refused: PASS", r"blktest: capacity: PASS",
             r"blktest: read sector 0: PASS", r"blktest: read sectors 120-127 \(4 KiB\): PASS",
             r"blktest: read the whole disk in one request \(64 KiB, 16 pages\): PASS",
             r"blktest: read sector 77 at offset 1024, nothing else touched: PASS",
             r"blktest: past the disk, past the frame, a misaligned offset, no sectors: refused: "
             r"PASS", r"blktest: an id out of range, an unknown request: refused: PASS",
             r"blktest: an id already in flight: refused \(EBUSY\): PASS",
             r"blktest: a read-only frame, a status area past the frame, too large a shift, an "
             r"endpoint, nothing: attach refused: PASS",
             r"blktest: after the refusals the service still serves: PASS",
             r"blktest: all checks passed", r"init: power off requested by blktest"]

CASES += [
    # Reads, refusals, then writes that must reach the image file: a fresh copy, no snapshot,
    # checked from the host after power-off. An entropy device sits on another transport, so
    # init must pick the right one.
    case("blk-read-write",
         [BLK_READY.format(128, ", flush"), *BLK_READS,
          r"blktest: write sectors 5, 64-79 \(one request\), 127; flush: PASS",
          r"blktest: the disk reads back as written, every other sector unchanged: PASS"],
         bootargs="init.run=blk:virtio-blk,^blktest@1[blk=0-]", smp=2,
         qemu_args=RNG + disk(PERSIST, snapshot=False), needs=[PERSIST], check=persisted,
         variants=CONTROLLERS),
    case("blk-sealed",
         [r"blkseal: sectors 10-13 read back sealed, data intact: PASS",
          r"blkseal: sector 10's data written to sector 20: refused, another sector's: PASS",
          r"blkseal: a bit of sector 11 flipped: refused, its data: PASS",
          r"blkseal: sector 12 back at generation 1: fine for at least 1, refused for at least "
          r"2 \(stale\): PASS",
          r"blkseal: sector 30, never sealed: refused: PASS",
          r"blkseal: every check passed"],
         bootargs="init.run=blk:virtio-blk,^blkseal@1[blk=0-]", smp=2,
         qemu_args=disk(), needs=[DISK]),
    case("blk-read-only",
         [BLK_READY.format(128, ", read-only.*"), *BLK_READS,
          r"blktest: write to the read-only disk refused \(EPERM\): PASS"],
         bootargs="init.run=blk:virtio-blk,^blktest@1[blk=0-]", smp=2, qemu_args=disk(readonly=True),
         needs=[DISK]),
]

# Many requests in flight (servers/tests/blkrand.c) on the 1 MiB disk: each client works in its
# own half (1 on an odd hart, lower; 2 on an even one, upper), keeps a checksum per sector and
# checks every read. The console's poweroff ends the machine once the clients are done.
RAND = [r"blkrand {0}: 16 reads submitted at once, the next refused \(object busy\), 16 "
        r"completed\n", r"blkrand {0}: 16 requests in flight, all completed and verified: PASS",
        r"blkrand {0}: 1000 random requests \(\d+ reads, \d+ writes, \d+ sectors\), 1000 "
        r"completed, at most 16 in flight, 0 wrong\n",
        r"blkrand {0}: 1000 random requests, every read verified: PASS",
        r"blkrand {0}: the whole half reads back as written: PASS",
        r"blkrand {0}: interrupts handled = counted on the line, <= completions; several at the "
        r"device at once: PASS", r"blkrand {0}: all checks passed"]
BLK_RUN = "init.run=^%uart=console:ns16550a,blk:virtio-blk"


def rand_done(n):
    """The output once n clients have finished."""
    return r"(?s)(blkrand \d: (all checks passed|FAIL)\r?\n.*){%d}" % n


CASES += [
    # One client: 16 in flight at once, then 1,000 random requests, its half read back, and
    # the driver's interrupts against the kernel's count on the line.
    case("blk-random",
         [BLK_READY.format(2048, ", flush"), *(p.format(1) for p in RAND),
          r"init: server blkrand finished with status 0", r"init: power off requested by uart"],
         bootargs=f"{BLK_RUN},blkrand@1[blk=0-1023]", smp=2, qemu_args=disk(BIG), needs=[BIG],
         console_input=(rand_done(1), "poweroff\r"), timeout=60),
    # Two clients at once on two other harts, each in its own half, both verified.
    case("blk-two-clients",
         [*(p.format(n) for p in RAND for n in (1, 2)),
          r"(?s)(init: server blkrand finished with status 0.*){2}",
          r"init: power off requested by uart"],
         bootargs=f"{BLK_RUN},blkrand@1[blk=0-1023],blkrand@2[blk=1024-]", smp=3,
         qemu_args=disk(BIG), needs=[BIG],
         console_input=(rand_done(2), "poweroff\r"), timeout=90, variants=CONTROLLERS),
]

# The same driver and clients over virtio-pci (the disk a transitional virtio-blk-pci in slot
# 3, 1af4:1001, its structures in BAR4; no virtio-mmio transport for blk in init.run=, so the
# kit's probe claims it from the PCI server; INTx on the PLIC's machine, MSI-X vector 0 on the
# AIA's): the reads, refusals and writes reach the image file, and 1,000 random requests with
# every read verified and every interrupt on the line the driver's, each one finding the ISR
# set.
BLK_PCI = "virtio-blk-pci,addr=3"
BLK_PCI_READY = (r"blk: virtio block device \(pci\), {} sectors of 512 bytes{}, 40 requests "
                 r"in flight\n")
BLK_PCI_LINE = {"aclint": r"pci: 00:03.0 INTx on", "aia": r"pci: 00:03.0 vector 0: line 97"}
BLK_PCI_FOUND = (r"pci: 00:03.0 1af4:1001 class 010000 bar0 none bar1 0x[0-9a-f]+ size 0x1000 "
                 r"bar4 0x[0-9a-f]+ size 0x4000 irq 3[2-5]")
CASES += [
    case("blk-pci-read-write",
         [BLK_PCI_FOUND, BLK_PCI_LINE, BLK_PCI_READY.format(128, ", flush"), *BLK_READS,
          r"blktest: write sectors 5, 64-79 \(one request\), 127; flush: PASS",
          r"blktest: the disk reads back as written, every other sector unchanged: PASS"],
         bootargs=f"{PCI_RUN},blk,^blktest@1[blk=0-]", smp=2,
         qemu_args=disk(PERSIST, snapshot=False, device=BLK_PCI), needs=[PERSIST],
         check=persisted, variants=CONTROLLERS),
    case("blk-pci-random",
         [BLK_PCI_FOUND, BLK_PCI_LINE, BLK_PCI_READY.format(2048, ", flush"),
          *(p.format(1) for p in RAND),
          r"init: server blkrand finished with status 0", r"init: power off requested by uart"],
         bootargs=f"{PCI_RUN},blk,blkrand@1[blk=0-1023]", smp=2,
         qemu_args=disk(BIG, device=BLK_PCI), needs=[BIG],
         console_input=(rand_done(1), "poweroff\r"), timeout=60, variants=CONTROLLERS),
]

# Hostile clients of the block service (servers outlive their clients, and a client cannot
# break a server); each fails on the service before sessions, device-frame checks,
# shares and grants (docs/virtio.md, "Clients that come and go, and hostile ones").
CASES += [
    # A driver attaches its MMIO frame (the RTC's registers) as its data frame and reads into
    # it: refused, and another client is served after it. The old service took the frame:
    # QEMU said "virtio: bogus descriptor or out of resources" and nothing completed again.
    case("blk-mmio-frame",
         [BLK_READY.format(128, ", flush"),
          r"blkmmio: the RTC's registers are a frame: is RAM 0 \(a page of it 0, a frame of "
          r"FRAME_NEW 1\)\n",
          r"blkmmio: an MMIO frame as the data frame, whole or derived: refused: PASS",
          r"blkmmio: a read into the MMIO frame: refused \(no frame attached\): PASS",
          r"blkmmio: then a proper session of the same client reads sector 0: PASS",
          r"blkmmio: all checks passed",
          r"blkvictim: sectors 0-7 read with eight requests in flight, every byte as made: PASS",
          r"blkvictim: sectors 8-15 written and read back: PASS",
          r"blkvictim: all checks passed", r"init: power off requested by blkvictim"],
         bootargs="init.run=blk:virtio-blk,blkmmio@1:goldfish-rtc[blk=0-7],"
                  "^blkvictim@1[blk=0-15]",
         smp=2, qemu_args=disk(), needs=[DISK],
         forbid=(r"PANIC", r"FAIL", r"bogus descriptor", r"resetting it")),
    # 20 clients that come and go (one entry restarted 20 times; every other one ends with a
    # 32 KiB read in flight), then a 21st that checks and closes with a read in flight and
    # reopens: each finds the machine's free memory as the first found it and the service
    # holding nothing. The old service kept each ended client's frame and slots.
    case("blk-clients-come-and-go",
         [BLK_READY.format(128, ", flush"),
          *(r"blkchurn %d: before opening: free pages \d+ \+ \d+ in caches \(run 1: \d+\), "
            r"kernel objects \d+ \(run 1: \d+\): PASS; the service holds 0 sessions, 0 ended, "
            r"0 slots: PASS" % n for n in range(1, 22)),
          *(r"blkchurn %d: wrote its sector, read back %d sectors of the runs so far: success, "
            r"0 wrong: PASS" % (n, min(n, 20)) for n in range(1, 22)),
          r"blkchurn 21: closed with a read in flight, opened again and read: success: PASS",
          r"blkchurn: 20 clients came and went, every one served, everything back: PASS",
          r"init: power off requested by blkchurn"],
         bootargs="init.run=blk:virtio-blk,^blkchurn@1*20[blk=0-63]", smp=2,
         qemu_args=disk(), needs=[DISK], timeout=60),
    # Six clients flood the service with reads (QEMU throttles reads to 1,000 a second, so
    # that the device holds them a while as a disk would) while another writes 200 sectors:
    # every write lands. The old service let the flooders take all 40 request slots and
    # refused the writer's writes (EBUSY), which lib handed back: writes lost.
    case("blk-flood",
         [BLK_READY.format(2048, ", flush"),
          r"(?s)(blkflood@\d: 200 requests done \(\d+ refused so far\); flooding on\n.*){6}",
          r"blkwriter: 200 writes beside the flood: 0 lost \(success\), \d+ submissions tried "
          r"again; the service completed \d+ requests meanwhile",
          r"blkwriter: every write landed, read back and verified: PASS \(0 bytes wrong\)",
          r"init: power off requested by blkwriter"],
         bootargs="init.run=blk/110:virtio-blk,^blkwriter@3[blk=0-199]," +
                  ",".join(f"blkflood@{1 + n % 2}[blk={1024 + 16 * n}-]" for n in range(6)),
         smp=4, qemu_args=THROTTLED, needs=[BIG], timeout=90, variants=CONTROLLERS),
    # A client granted sectors 32-63 reads and writes inside (done) and outside (refused),
    # and one without a grant is refused every sector. The old service let any client read
    # and write any sector.
    case("blk-ranges",
         [BLK_READY.format(128, ", flush"),
          r"blkrange granted: the service grants sectors 32-63 \(32\)",
          r"blkrange granted: the range the entry grants: sectors 32-63: PASS",
          r"blkrange granted: inside: its first sector, its last, eight in one request written "
          r"and read back: PASS",
          r"blkrange granted: outside: below, above, far away, across its start and its end, "
          r"the whole disk: refused \(EPERM\): PASS",
          r"blkrange granted: a flush is done: PASS", r"blkrange granted: all checks passed",
          r"(?s)(blkrange \w+: asking init what a client of \"blk\" is granted, not being blk: "
          r"refused \(EPERM\): PASS.*){2}",
          r"blkrange ungranted: no grant: every read and write refused \(EPERM\): PASS",
          r"blkrange ungranted: no grant: a flush is done: PASS",
          r"blkrange ungranted: all checks passed", r"init: power off requested by uart"],
         bootargs=f"{BLK_RUN},blkrange@1[blk=32-63],blkrange@1", smp=2, qemu_args=disk(),
         needs=[DISK],
         console_input=(r"(?s)(blkrange \w+: (all checks passed|FAIL)\r?\n.*){2}",
                        "poweroff\r")),
]

# When the device fails anyway: the service resets it and fails what was in flight, rather
# than leave every client waiting. Neither happens with the service as it is: blk_trusting is
# the service built to take any frame (servers/tests/blktrusting.c), as the old one did.
STALLED = ("-blockdev", "driver=null-co,node-name=disk0,size=1048576,latency-ns=7000000000,"
           "read-zeroes=on", "-device", "virtio-blk-device,drive=disk0")
CASES += [
    # blkmmio breaks the device through a service that takes its MMIO frame: QEMU marks the
    # device NEEDS_RESET; the service resets it, the attacker's read fails, and the victim is
    # served. The old service never looked: nothing completed again, for anyone.
    case("blk-device-reset",
         [r"blkmmio: attaching the RTC's MMIO frame: success; a page derived from it: success",
          r"virtio: bogus descriptor or out of resources",
          r"blk: the device needs a reset \(NEEDS_RESET\); resetting it, and answering the 1 "
          r"requests in flight", r"blkmmio: the read into the registers completed",
          r"blkmmio: then a proper session of the same client reads sector 0: PASS",
          r"blkvictim: sectors 0-7 read with eight requests in flight, every byte as made: PASS",
          r"blkvictim: sectors 8-15 written and read back: PASS",
          r"blkvictim: all checks passed", r"init: power off requested by blkvictim"],
         bootargs="init.run=blk_trusting=blk:virtio-blk,blkmmio@1:goldfish-rtc[blk=0-7],"
                  "^blkvictim@1[blk=0-15]",
         smp=2, qemu_args=disk(), needs=[DISK], forbid=(r"PANIC", r"blkvictim: .*FAIL")),
    # A device that holds every request 7 s (QEMU's null-co backend): the service's watchdog
    # resets it once the read has waited 5 s, and answers it (QEMU's reset waits for its
    # backend's request, so the read completes, at 7 s). The old service had no watchdog: a
    # device that never answered left its clients waiting for ever.
    case("blk-stalled-device",
         [r"blk: the device left a request unanswered for 5 s; resetting it, and answering the 1 "
          r"requests in flight",
          r"blkstall: a read the device held: answered \((success|bad user address)\) after \d+ "
          r"ms; the service reset the device 1 times: PASS",
          r"init: power off requested by blkstall"],
         bootargs="init.run=blk:virtio-blk,^blkstall@1[blk=0-]", smp=2, qemu_args=STALLED,
         timeout=60),
]
