#!/usr/bin/env python3
"""faults.py: the fault injection campaign's runner, its runs' summaries and its figures
(docs/faults.md).

  python3 tools/faults.py run --n N --seed SEED --drivers rbtu [--jobs J] [--no-record]
                             [--alive-ms MS] [--dma] [--garbage] [--pci [--shared-line]]
                             [--machine aia]
                             [--from K --no-record]
      boot the faults kernel (build/faults/kernel.bin) with servers/faults as the campaign and
      the drivers restarted at once as often as it takes (init.restart_max_ms=0), each asked
      whether it is alive (`~ALIVE_MS`); J QEMU instances at once (seeds SEED .. SEED+J-1, the
      N faults shared among them), each's serial output into build/faults/campaign-SEED.log and
      its summary into docs/faults/runs/SEED.json (not with --no-record); prints their figures
      and the rate over the wall clock; exits 1 unless every campaign said `faults: PASS`.
      `make faults [N=... SEED=... DRIVERS=... JOBS=...]`. --dma: data faults into words in
      frames pinned for DMA too (by default the injector refuses them, and they count as
      skipped: with no IOMMU a device DMAs wherever a corrupted descriptor says, the kernel's
      memory too, and nothing in the kernel can stop it). --garbage: two fault types more,
      garbage in a driver's next reply to a client (`reply`) and a driver that stops consuming
      its rings, its notification unbound (`deaf`); a seed draws other faults then. --pci: rng,
      blk (and net) as virtio-pci functions claimed from the pci server (INTx on the PLIC's
      machine, rng's and blk's lines their own; MSI-X on the AIA's), not virtio-mmio. --machine
      aia: QEMU's AIA (APLIC and IMSICs) instead of the PLIC. --shared-line (with --pci, on the
      PLIC's machine): blk in slot 5, on rng's INTx line (docs/faults.md, "Over PCI": the shared
      line's blame). Each is said in the campaign's name (`.g`, `.p`, `.a`, `.s`), so its log,
      its summary and a replay say them. --from K: faults K to K+N-1 of the seed (the generator
      drawn past the first K, nothing thrown), on a fresh boot: a replay of a run's end, with
      --no-record.
  python3 tools/faults.py table [--write] [LOG...]
      the figures of every committed run (docs/faults/runs/*.json), or of those campaign logs,
      as the markdown tables docs/faults.md holds; --write rewrites them there (between
      MARK_BEGIN and MARK_END; never by hand).
  python3 tools/faults.py summary LOG
      a log's summary, as run writes it.
  python3 tools/faults.py replay LOG [--back M] [--tries T]
      after a run that ended in a kernel panic: each of its last M faults (32; the one under
      way at the end first) thrown alone, faults K to K of its seed, on T fresh boots each (2;
      logs build/faults/replay-SEED-K.log): the faults that panic the kernel by themselves in
      every boot. Exits 1 if none does.

A campaign's log has one line per fault (servers/faults/faults.c): `faults: #K DRIVER TYPE ...
-> OUTCOME in T us (E errors)`. A restart's cause is in init's lines between that fault's line
and the one before it: "faulted" (the driver crashed: crash + restart), "has not answered"
(init's liveness thread: hang + restart), "says it left a request unanswered" (a client's
report, INIT_STUCK: hang + restart, told by the client). A fault whose client saw errors before
a good answer counts as client-visible too. `faults: latent DRIVER after #K -> ...` lines (a
driver not faulted just then that answered badly in the round of uses after fault K) are
counted per driver, and init's lines before them are theirs, not the next fault's.

A summary (docs/faults/runs/SEED.json) holds the run's parameters, the commit it ran, whether it
passed (and, for a run stopped before its end, `stopped`: why, and the faults it kept), its
panics, and its counts: `counts[driver][type][outcome]`, the client-visible errors
and latent faults per driver, the times to a working driver as a histogram of whole ms (the
worst exact), the campaign's time (guest) and the wall time of the batch it ran in. A seed
throws the same faults (driver, type, where, value) in every run: the campaign draws them from
a generator of their own. Their outcomes depend on timing (where the driver was stopped, when a
restart came), so a seed's outcome counts vary a little between runs."""
import argparse
import datetime
import glob
import json
import os
import random
import re
import socket
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests"))
sys.dont_write_bytecode = True
from machine import MACHINES, dtb_for_machine, kernel_image  # noqa: E402

DOC = os.path.join(ROOT, "docs", "faults.md")
RUNS = os.path.join(ROOT, "docs", "faults", "runs")
MARK_BEGIN = "<!-- faults:begin -->"
MARK_END = "<!-- faults:end -->"
OPENSBI = "/usr/lib/riscv64-linux-gnu/opensbi/generic/fw_dynamic.bin"
DISK = "build/blk-test.img"  # relative: QEMU runs in ROOT
DRIVE = ["-drive", f"file={DISK},if=none,format=raw,id=disk0,snapshot=on"]
DEVICES = ["-device", "virtio-rng-device", *DRIVE, "-device", "virtio-blk-device,drive=disk0"]
# Over PCI: rng in slot 1, blk in slot 3, net (when there) in slot 2: each on an INTx line of
# its own on the PLIC's machine (device % 4 picks the bridge's line; a shared line lets a
# faulted rng that stops acknowledging hold blk's interrupts masked: docs/faults.md). On the
# AIA's each has MSI-X.
PCI_DEVICES = ["-device", "virtio-rng-pci,addr=1", *DRIVE,
               "-device", "virtio-blk-pci,drive=disk0,addr=3"]
# --shared-line: blk in slot 5 instead, on rng's line (5 % 4 == 1 % 4), to run the shared
# line's case on purpose.
PCI_DEVICES_SHARED = ["-device", "virtio-rng-pci,addr=1", *DRIVE,
                      "-device", "virtio-blk-pci,drive=disk0,addr=5"]
PCI_RESOURCES = "pci-host-ecam-generic+pci-mmio32+pci-intx"
RESTARTS = 99999  # each driver's `*N`: as often as it takes (a run's N/15 or so)
BOOTARGS_MAX = 1023  # TACET_BOOTINFO_BOOTARGS_MAX less its NUL: the kernel cuts the rest
NAME_MAX = 23  # the service name init keeps: N.SEED.DRIVERS and the options
ALIVE_MS = 10       # each driver's `~MS`: asked every 2 ms, ended after 10 ms unanswered
HANG_REPORTED = "hang + restart (client's report)"
MINIX_FAULTS = 3400000  # Herder et al., "Fault isolation for device drivers", DSN 2009

FAULT_RE = re.compile(r"faults: #(\d+) (\S+) (\S+) (?:where=(\S+) value=(\S+) )?(?:dma-\S+ )*"
                      r"(?:(at-work) )?-> (\S+)(?: in (\d+) us \((\d+) errors\))?")
LATENT_RE = re.compile(r"faults: latent (\S+) after #-?\d+ -> (\S+)")
FIRST_TYPES = ("reg-arg", "reg-saved", "reg-sp", "reg-ra", "reg-pc", "text-flip", "text-set",
               "data", "hang")
AT_REST = FIRST_TYPES + ("reply", "deaf")  # the last two with --garbage (.g) only
AT_WORK = tuple(f"{t} at work" for t in AT_REST)  # thrown by the catcher while it worked
TYPES = AT_REST + AT_WORK
DRIVERS = ("rng", "blk", "rtc", "uart", "net", "pci")
OUTCOMES = ("no effect", "detected error", "crash + restart", "hang + restart",
            HANG_REPORTED, "data mismatch", "unrecovered", "skipped")


def says(options, letter):
    """Does the campaign's name say option `letter` (`.LETTER` before any `.fK`)?"""
    return f".{letter}" in options.split(".f")[0]


def over_pci(options):
    """Does the campaign's name say its virtio devices are PCI functions (`.p`)?"""
    return says(options, "p")


def shared_line(options):
    """Does the campaign's name say blk shares rng's INTx line (`.s`, with `.p`)?"""
    return says(options, "s")


def pci_devices(options):
    """The PCI functions' QEMU arguments for the campaign's options (rng and blk)."""
    return PCI_DEVICES_SHARED if shared_line(options) else PCI_DEVICES


def machine_of(options):
    """The machine the campaign's name says (`.a`: the AIA's, else the PLIC's with ACLINT)."""
    return "aia" if says(options, "a") else "aclint"


def bootargs(n, seed, drivers, alive_ms=ALIVE_MS, options=""):
    """init.run= and init's other arguments for the campaign (options: the campaign's, each
    after a dot: `.d`, `.g`, `.p`, `.s`, `.a`, `.fK`); the kernel keeps BOOTARGS_MAX bytes, init
    NAME_MAX of the campaign's name (checked: nothing may be cut). Over PCI (`.p`) the virtio
    drivers' entries name no virtio-mmio transport: each claims its function from the pci server
    (lib's virtio_probe), which is there, restarted as often as it takes, and asked whether it
    is alive when it is faulted too (`p`)."""
    entry = lambda name: f"{name}*{RESTARTS}~{alive_ms}"  # noqa: E731
    net = "n" in drivers  # net0's driver, and ip and the echo service over it (not faulted)
    pci = over_pci(options)
    mmio = lambda compatible: "" if pci else f":{compatible}"  # noqa: E731
    bus = f"pci:{PCI_RESOURCES}*{RESTARTS}" + (f"~{alive_ms}" if "p" in drivers else "")
    return ("init.run=" + ",".join([
        entry("uart=console:ns16550a"), *([bus] if pci else []),
        entry("rng" + mmio("virtio-rng")), entry("rtc:goldfish-rtc"),
        entry("blk" + mmio("virtio-blk")),
        *([entry("net=net0" + mmio("virtio-net")), "ip@1*9", "echo@1*9"] if net else []),
        f"^%faults={n}.{seed}.{drivers}{options}@1/120[blk=0-63;rng=1;rtc=1;console=1"
        + (";net0=1" if net else "") + (";pci=1" if "p" in drivers else "") + "]"])
        + " init.restart_max_ms=0")


def checked_bootargs(n, seed, drivers, alive_ms, options=""):
    name = f"{n}.{seed}.{drivers}{options}"
    if len(name) > NAME_MAX:
        raise SystemExit(f"faults.py: the campaign's name {name} is longer than init keeps "
                         f"({NAME_MAX} bytes)")
    args = bootargs(n, seed, drivers, alive_ms, options)
    if len(args) > BOOTARGS_MAX:
        raise SystemExit(f"faults.py: boot arguments of {len(args)} bytes, the kernel keeps "
                         f"{BOOTARGS_MAX}: {args}")
    return args


def net_devices(port=None, pci=False):
    """A virtio-net card on QEMU's user network, the host's 127.0.0.1:port forwarded to the
    guest's TCP port 7 (the echo service); without a port, as the device tree's dump sees it."""
    fwd = f",hostfwd=tcp:127.0.0.1:{port}-:7" if port else ""
    card = "virtio-net-pci,netdev=n0,addr=2,romfile=" if pci else "virtio-net-device,netdev=n0"
    return ["-netdev", f"user,id=n0{fwd}", "-device", card]


def qemu_command(n, seed, drivers, smp, alive_ms, port=None, options=""):
    pci, machine = over_pci(options), machine_of(options)
    devices = pci_devices(options) if pci else DEVICES
    net = "n" in drivers
    dtb = dtb_for_machine(ROOT, machine, smp, "128M",
                          devices + (net_devices(pci=pci) if net else []))
    return ["qemu-system-riscv64", *MACHINES[machine], "-global",
            "virtio-mmio.force-legacy=false", "-smp", str(smp), "-m", "128M", "-display",
            "none", "-monitor", "none", "-serial", "stdio", "-bios", OPENSBI, "-kernel",
            kernel_image(ROOT, "faults"), "-dtb", dtb, "-initrd",
            os.path.join(ROOT, "build", "modules.img"), "-append",
            checked_bootargs(n, seed, drivers, alive_ms, options), *devices,
            *(net_devices(port, pci) if net else [])]


class TcpStream(threading.Thread):
    """The host's TCP stream through the guest's echo service while net0's driver takes faults
    (its frames; ip's TCP retransmits what a restart lost): chunks of seeded random bytes, each
    read back whole before the next, compared byte for byte and into a digest of everything
    sent and everything back. Connects once the echo answers a first chunk; a connection that
    ends before the campaign has said its totals (campaign_done(): in its log, by default) is
    broken. Its figures: bytes back, chunks that differed, the longest wait for a chunk, and
    what broke it; and, for the longest wait, how many times init restarted each server while
    the chunk waited (from the campaign's log: a wait far longer than any one restart is TCP's
    retransmission backing off, each restart losing the next try)."""
    CHUNK = 4096
    RESTART_RE = re.compile(r"init: restarting (\S+) \(restart")

    def __init__(self, port, seed, log=None, campaign_done=None):
        super().__init__(daemon=True)
        self.port, self.log, self.rng = port, log, random.Random(seed)
        if campaign_done:
            self.campaign_done = campaign_done
        self.sent, self.back = __import__("hashlib").sha256(), __import__("hashlib").sha256()
        self.bytes = self.differed = 0
        self.longest = 0.0
        self.longest_restarts = {}
        self.broken = ""
        self.pending = 0.0  # the chunk under way when the campaign ended: its wait so far
        self.stopping = threading.Event()

    def campaign_done(self):
        return bool(re.search(r"faults: \d+ faults in", open(self.log, errors="replace").read()))

    def log_size(self):
        try:
            return os.path.getsize(self.log) if self.log else 0
        except OSError:
            return 0

    def restarts_between(self, start, end):
        """Restarts per server in the log's bytes start..end."""
        if not self.log:
            return {}
        with open(self.log, "rb") as f:
            f.seek(start)
            text = f.read(end - start).decode(errors="replace")
        counts = {}
        for m in self.RESTART_RE.finditer(text):
            counts[m.group(1)] = counts.get(m.group(1), 0) + 1
        return counts

    def connect(self):
        while not self.stopping.is_set():
            try:
                s = socket.create_connection(("127.0.0.1", self.port), timeout=2)
                s.sendall(b"hello")
                if s.recv(5) == b"hello":
                    return s
                s.close()
            except OSError:
                pass
            time.sleep(0.2)
        return None

    def run(self):
        s = self.connect()
        if not s:
            return
        s.settimeout(1)
        while not self.stopping.is_set():
            chunk, got = self.rng.randbytes(self.CHUNK), b""
            started, log_at = time.time(), self.log_size()
            try:
                s.sendall(chunk)
                while len(got) < len(chunk) and not self.stopping.is_set():
                    try:
                        part = s.recv(len(chunk) - len(got))
                    except socket.timeout:
                        continue
                    if not part:
                        raise OSError("closed by the guest")
                    got += part
            except OSError as e:
                if not self.stopping.is_set() and not self.campaign_done():
                    self.broken = f"{e} after {self.bytes} bytes"
                return
            if len(got) < len(chunk):  # stopped mid-chunk: how long it has waited
                self.pending = time.time() - started
                return
            if time.time() - started > self.longest:
                self.longest = time.time() - started
                self.longest_restarts = self.restarts_between(log_at, self.log_size())
            self.sent.update(chunk)
            self.back.update(got)
            self.bytes += len(got)
            self.differed += got != chunk

    def problems(self):
        """What makes a run fail in these figures (none: an empty list)."""
        f = self.figures()
        return [f"the TCP stream through net0: {what}: {f}" for what, bad in (
            ("no byte came back", not f["bytes"]), ("a chunk came back different",
                                                    f["chunks_differed"]),
            ("the digests differ", not f["digest_equal"]), ("broken", f["broken"])) if bad]

    def figures(self):
        return {"bytes": self.bytes, "chunks_differed": self.differed,
                "digest_equal": self.sent.digest() == self.back.digest(),
                "longest_wait_s": round(self.longest, 3),
                "longest_wait_restarts": self.longest_restarts,
                "waiting_at_end_s": round(self.pending, 3), "broken": self.broken}


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def campaign(n, seed, drivers, smp, timeout, alive_ms=ALIVE_MS, options="", log=None):
    """One QEMU instance's campaign: (its log's path, its text, whether it passed, the TCP
    stream's figures or None)."""
    log = log or os.path.join(ROOT, "build", "faults", f"campaign-{seed}.log")
    os.makedirs(os.path.dirname(log), exist_ok=True)
    port = free_port() if "n" in drivers else None
    with open(log, "w") as out:
        stream = TcpStream(port, seed, log) if port else None
        if stream:
            stream.start()
        try:
            code = subprocess.run(qemu_command(n, seed, drivers, smp, alive_ms, port, options),
                                  stdin=subprocess.DEVNULL, stdout=out,
                                  stderr=subprocess.STDOUT, timeout=timeout,
                                  cwd=ROOT).returncode
        except subprocess.TimeoutExpired:
            code = -1
    if stream:
        stream.stopping.set()
        stream.join(5)
    tcp = stream.figures() if stream else None
    text = open(log, errors="replace").read()
    ok = code == 0 and "faults: PASS" in text and "PANIC" not in text
    if stream:
        ok = ok and not stream.problems()
    return log, text, ok, tcp


def commit():
    """The commit the build came from, `+` if the tree differs from it."""
    git = lambda *a: subprocess.run(["git", *a], cwd=ROOT, capture_output=True,  # noqa: E731
                                    text=True).stdout.strip()
    return git("rev-parse", "--short=12", "HEAD") + ("+" if git("status", "--porcelain",
                                                                 "--untracked-files=no") else "")


def run(args):
    jobs = max(1, args.jobs)
    if args.shared_line and not args.pci:
        raise SystemExit("faults.py: --shared-line puts blk on rng's INTx line over PCI: "
                         "with --pci only")
    if args.shared_line and args.machine == "aia":
        raise SystemExit("faults.py: --shared-line: on the AIA's machine each PCI function "
                         "has its MSI-X vector, no INTx line to share")
    options = ((".d" if args.dma else "") + (".g" if args.garbage else "")
               + (".p" if args.pci else "")
               + (".s" if args.shared_line else "") + (".a" if args.machine == "aia" else "")
               + (f".f{args.first}" if args.first else ""))
    if args.first and not args.no_record:
        raise SystemExit("faults.py: --from replays part of a seed: with --no-record only")
    shares = [args.n // jobs + (i < args.n % jobs) for i in range(jobs)]
    seeds = [args.seed + i for i in range(jobs)]
    built = commit()  # now: the tree may change while the campaigns run
    started = time.time()
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        done = list(pool.map(lambda i: campaign(shares[i], seeds[i], args.drivers, args.smp,
                                                args.timeout, args.alive_ms, options),
                             range(jobs)))
    for log, _, _, tcp in done:
        if tcp:
            print(f"{log}: the TCP stream through net0: {tcp}")
    wall = time.time() - started
    batch = {"jobs": jobs, "seeds": seeds, "faults": sum(shares), "wall_s": round(wall, 1),
             "alive_ms": args.alive_ms}
    summaries = [summary(text, passed, batch, built, tcp) for _, text, passed, tcp in done]
    if not args.no_record:
        os.makedirs(RUNS, exist_ok=True)
        for s in summaries:
            with open(os.path.join(RUNS, f"{s['seed']}.json"), "w") as f:
                json.dump(s, f, indent=1, sort_keys=True)
                f.write("\n")
    print("\n".join(table(summaries)))
    print(f"{sum(shares)} faults in {wall:.1f} s of wall clock with {jobs} QEMU instance(s): "
          f"{sum(shares) / wall:.1f} faults a second")
    for log, _, passed, _ in done:
        print(f"{log}: {'PASS' if passed else 'FAIL'}")
    return 0 if all(p for _, _, p, _ in done) else 1


def replay(args):
    """Each of the last `back` faults of a campaign's log (the one under way when it ended
    first) thrown alone on fresh boots, `tries` each: which panic the kernel by themselves."""
    text = open(args.log, errors="replace").read()
    p = re.search(r'faults: \d+ faults into \d+ drivers, seed "\d+\.(\d+)\.([a-z]+)'
                  r'((?:\.[dpsa])*)', text)
    if not p:
        raise SystemExit(f"faults.py: {args.log} is no campaign's log")
    seed, drivers, opts = int(p.group(1)), p.group(2), p.group(3)
    last = max((int(k) for k in re.findall(r"faults: #(\d+) ", text)), default=-1)
    alone = []
    for k in range(last + 1, max(-1, last + 1 - args.back), -1):
        log = os.path.join(ROOT, "build", "faults", f"replay-{seed}-{k}.log")
        runs = [campaign(1, seed, drivers, args.smp, 120, ALIVE_MS, f"{opts}.f{k}", log)[1]
                for _ in range(args.tries)]
        panics = sum("PANIC" in t for t in runs)
        line = re.search(rf"faults: #{k} .*", runs[-1])
        print(f"fault #{k} ({line.group(0) if line else 'not thrown'}): "
              f"the kernel panicked in {panics} of {args.tries} fresh boots")
        alone += [k] if panics == args.tries else []
    print(f"panic alone in every boot: {', '.join(f'#{k}' for k in alone) or 'none'}")
    return 0 if alone else 1


OUTCOME_OF = {"none": "no effect", "error": "detected error", "mismatch": "data mismatch",
              "unrecovered": "unrecovered", "skipped": "skipped"}


def garbled_outcome(word):
    """A fault line's outcome word that a fault into the console garbled (its echo written into
    the middle of the campaign's line: `-> nona`, `e in 375 us` on the next line): the one
    outcome it starts like, or None."""
    like = [w for w in (*OUTCOME_OF, "restart") if w[:3] == word[:3]]
    return like[0] if len(like) == 1 else None


def faults_of(text):
    """Each fault of a campaign's log: (driver, type, outcome, us, errors); a latent fault's
    line as (driver, None, its outcome, 0, 0)."""
    since = []
    for line in text.splitlines():
        latent = LATENT_RE.search(line)
        if latent:
            since = []
            yield latent.group(1), None, latent.group(2), 0, 0
            continue
        m = FAULT_RE.search(line)
        if not m:
            since.append(line)
            continue
        _, driver, ftype, _, _, at_work, got, us, errors = m.groups()
        ftype += " at work" if at_work else ""
        between = "\n".join(since)
        since = []
        if got not in (*OUTCOME_OF, "restart"):
            got = garbled_outcome(got) or got
        if got == "restart":  # init's lines about this driver say why
            got = (HANG_REPORTED if f"client of {driver} says it left" in between
                   else "hang + restart" if f"server {driver} has not answered" in between
                   else "crash + restart")
        else:
            got = OUTCOME_OF.get(got, "garbled")
        yield driver, ftype, got, int(us or 0), int(errors or 0)


def summary(text, passed, batch=None, built=None, tcp=None):
    """A campaign log's summary (what docs/faults/runs/SEED.json holds); `built`: the commit
    its build came from (by default the tree's now)."""
    m = re.search(r"faults: (\d+) faults in (\d+) ms", text)
    sealed = re.search(r"faults: blk reads whose seal failed \(the client told\): (\d+)", text)
    held = re.search(r"faults: blk waits that failed with the request still held by lib: (\d+); "
                     r"writes whose buffer changed before they completed: (\d+)", text)
    p = re.search(r'faults: \d+ faults into \d+ drivers, seed "(\d+)\.(\d+)\.([a-z]+)([^"]*)"',
                  text)
    options = p.group(4) if p else ""
    counts, visible, latent, times, worst = {}, {}, {}, {}, 0
    garbled = 0
    for driver, ftype, got, us, errors in faults_of(text):
        if got == "garbled":  # no outcome to read: counted apart
            garbled += 1
            continue
        if ftype is None:
            latent[driver] = latent.get(driver, 0) + 1
            continue
        by_type = counts.setdefault(driver, {}).setdefault(ftype, {})
        by_type[got] = by_type.get(got, 0) + 1
        visible[driver] = visible.get(driver, 0) + (errors > 0)
        if got not in ("no effect", "skipped", "unrecovered"):
            times[str(us // 1000)] = times.get(str(us // 1000), 0) + 1
            worst = max(worst, us)
    return {"n": int(p.group(1)) if p else 0, "seed": int(p.group(2)) if p else -1,
            "drivers": p.group(3) if p else "", "commit": built or commit(),
            "machine": machine_of(options), "transport": "pci" if over_pci(options) else "mmio",
            **({"shared_line": True} if shared_line(options) else {}),
            **({"garbage": True} if says(options, "g") else {}),
            "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
            "passed": passed, "panics": text.count("PANIC"),
            "campaign_ms": int(m.group(2)) if m else 0, "batch": batch or {},
            "counts": counts, "client_saw_error": visible, "latent": latent,
            "times_ms": times, "worst_us": worst,
            "liveness_ends": len(re.findall(r"init: server \S+ has not answered", text)),
            "dma_refused": len(re.findall(r"-> skipped \(DMA", text)),
            "dma_thrown": len(re.findall(r" dma-(?:pinned|address) ", text)),
            **({"tcp": tcp} if tcp else {}),
            **({"seal_failures": int(sealed.group(1))} if sealed else {}),
            **({"garbled_lines": garbled} if garbled else {}),
            **({"blk_held_by_lib": int(held.group(1)),
                "blk_buffer_changed": int(held.group(2))} if held else {}),
            "final": re.findall(r"faults: (.*: (?:PASS|FAIL))$", text, re.M)}


def table(runs):
    """The markdown figures of these summaries, summed."""
    def count(driver=None, ftype=None, outcome=None):
        return sum(c for r in runs for d, types in r["counts"].items() if driver in (None, d)
                   for t, outs in types.items() if ftype in (None, t)
                   for o, c in outs.items() if outcome in (None, o))

    total = count()
    drivers = [d for d in DRIVERS if count(d)] or list(DRIVERS)
    lines = ["| fault type | " + " | ".join(drivers) + " | all |",
             "|---|" + "---:|" * (len(drivers) + 1)]
    types = [t for t in TYPES if t.replace(" at work", "") in FIRST_TYPES or count(ftype=t)]
    for t in types:
        lines.append(f"| {t} | " + " | ".join(f"{count(d, t):,}" for d in drivers)
                     + f" | {count(ftype=t):,} |")
    lines.append("| **all** | " + " | ".join(f"{count(d):,}" for d in drivers)
                 + f" | {total:,} |")
    lines += ["", "| outcome | " + " | ".join(drivers) + " | all |",
              "|---|" + "---:|" * (len(drivers) + 1)]
    for o in OUTCOMES:
        lines.append(f"| {o} | " + " | ".join(f"{count(d, outcome=o):,}" for d in drivers)
                     + f" | {count(outcome=o):,} |")
    per = lambda key, d: sum(r[key].get(d, 0) for r in runs)  # noqa: E731
    lines.append("| client saw an error first | " + " | ".join(
        f"{per('client_saw_error', d):,}" for d in drivers)
        + f" | {sum(per('client_saw_error', d) for d in drivers):,} |")
    lines.append("| latent (another fault's round of uses) | " + " | ".join(
        f"{per('latent', d):,}" for d in drivers)
        + f" | {sum(per('latent', d) for d in drivers):,} |")
    lines += ["", "| fault type | " + " | ".join(OUTCOMES) + " |",
              "|---|" + "---:|" * len(OUTCOMES)]
    for t in types:
        lines.append(f"| {t} | " + " | ".join(f"{count(ftype=t, outcome=o):,}" for o in OUTCOMES)
                     + " |")
    panics = sum(r["panics"] for r in runs)
    lines += ["", "| beside MINIX 3 | MINIX 3 (Herder et al., DSN 2009) | Tacet (these runs) |",
              "|---|---:|---:|",
              f"| faults injected | {MINIX_FAULTS:,} | {total:,} |",
              f"| drivers | 4 Ethernet drivers | {len(drivers)} ({', '.join(drivers)}) |",
              f"| system crashes (kernel panics) | 0 | {panics} |",
              f"| hangs not recovered | 1 (blamed on the hardware) | "
              f"{count(outcome='unrecovered'):,} |",
              f"| silent data mismatches | not measured | {count(outcome='data mismatch'):,} |",
              f"| blk reads whose seal failed (told to the client; runs that sealed: "
              f"{sum('seal_failures' in r for r in runs)}) | - | "
              f"{sum(r.get('seal_failures', 0) for r in runs):,} |"]
    hist = {}
    for r in runs:
        for ms, c in r["times_ms"].items():
            hist[int(ms)] = hist.get(int(ms), 0) + c
    back, seen, median = sum(hist.values()), 0, 0
    for ms in sorted(hist):
        seen += hist[ms]
        if 2 * seen >= back:
            median = ms
            break
    secs = sum(r["campaign_ms"] for r in runs) / 1000
    whole = [r["batch"] for r in runs if r["batch"].get("wall_s") and all(  # every run ended
        o["campaign_ms"] for o in runs if o["batch"].get("seeds") == r["batch"]["seeds"])]
    fastest = max(whole, key=lambda b: b["faults"] / b["wall_s"], default=None)
    thrown = lambda r: sum(c for types in r["counts"].values()  # noqa: E731
                           for outs in types.values() for c in outs.values())
    largest = max(runs, key=thrown, default=None)
    seeds = ", ".join(f"{r['seed']}" + ("" if r["passed"] else
                                        f" (stopped after {thrown(r):,})" if r.get("stopped")
                                        else " (failed)")
                      for r in sorted(runs, key=lambda r: r["seed"]))
    lines += ["", f"Runs: {len(runs)} (seeds {seeds}; "
              f"{sum(1 for r in runs if r['passed'])} passed); the largest "
              + (f"{thrown(largest):,} faults (seed {largest['seed']})" if largest else "none")
              + f". Restarts: {count(outcome='crash + restart') + count(outcome='hang + restart') + count(outcome=HANG_REPORTED):,}. "
              f"Faults into what a device is given (a word pinned for DMA, or a DMA address), "
              f"refused by the injector: {sum(r.get('dma_refused', 0) for r in runs):,} "
              f"(skipped), thrown (--dma): {sum(r.get('dma_thrown', 0) for r in runs):,}. "
              f"Ended by the liveness thread: {sum(r.get('liveness_ends', 0) for r in runs):,} "
              f"(after a hang thrown: {count(ftype='hang', outcome='hang + restart') + count(ftype='hang at work', outcome='hang + restart'):,}; "
              f"the rest after other faults or latent). "
              f"Time to a working driver after a restart or error: median {median} ms (whole ms), "
              f"worst {max((r['worst_us'] for r in runs), default=0) / 1000:.1f} ms. "
              f"Rate: {sum(thrown(r) for r in runs if r['campaign_ms']) / secs if secs else 0:.1f} "
              f"faults a second in one QEMU instance (the finished campaigns' own time)"
              + (f"; {fastest['faults'] / fastest['wall_s']:.1f} over the wall clock with "
                 f"{fastest['jobs']} at once (seeds {', '.join(map(str, fastest['seeds']))}, boot "
                 f"included)" if fastest else "") + "."]
    pci = [r for r in runs if r.get("transport") == "pci"]
    aia = [r for r in runs if r.get("machine") == "aia"]
    if pci or aia:
        lines[-1] += (f" The virtio devices as PCI functions behind the pci server (--pci): "
                      f"{len(pci)} runs, {sum(thrown(r) for r in pci):,} faults; on the AIA's "
                      f"machine (--machine aia): {len(aia)} runs, "
                      f"{sum(thrown(r) for r in aia):,} faults; the rest virtio-mmio on the "
                      f"PLIC's.")
    shared = [r for r in runs if r.get("shared_line")]
    if shared:
        lines[-1] += (f" rng and blk on one INTx line (--shared-line): {len(shared)} runs, "
                      f"{sum(thrown(r) for r in shared):,} faults.")
    garbage = [r for r in runs if r.get("garbage")]
    if garbage:
        lines[-1] += (f" With garbage in replies and deaf drivers (--garbage): {len(garbage)} "
                      f"runs, {sum(thrown(r) for r in garbage):,} faults.")
    streams = [r["tcp"] for r in runs if r.get("tcp")]
    if streams:
        lines[-1] += (f" The TCP stream through net0 (host to the echo service and back): "
                      f"{sum(t['bytes'] for t in streams):,} bytes back in {len(streams)} runs, "
                      f"{sum(t['chunks_differed'] for t in streams)} chunks differed, "
                      f"{sum(1 for t in streams if not t['digest_equal'])} digests differed, "
                      f"{sum(1 for t in streams if t['broken'])} broken, the longest wait for a "
                      f"chunk {max(t['longest_wait_s'] for t in streams):.1f} s.")
    return lines


def committed_runs():
    return [json.load(open(p)) for p in sorted(glob.glob(os.path.join(RUNS, "*.json")))]


def write(lines):
    doc = open(DOC).read()
    begin, end = doc.index(MARK_BEGIN), doc.index(MARK_END)
    note = ("<!-- generated by `python3 tools/faults.py table --write` from docs/faults/runs/; "
            "do not edit by hand -->")
    doc = doc[:begin] + MARK_BEGIN + "\n" + note + "\n" + "\n".join(lines) + "\n" + doc[end:]
    open(DOC, "w").write(doc)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("--n", type=int, default=1000)
    r.add_argument("--seed", type=int, default=1)
    r.add_argument("--drivers", default="rbtu")
    r.add_argument("--jobs", type=int, default=1)
    r.add_argument("--smp", type=int, default=2)
    r.add_argument("--no-record", action="store_true")
    r.add_argument("--alive-ms", type=int, default=ALIVE_MS)  # longer on a loaded host
    r.add_argument("--timeout", type=int, default=None)
    r.add_argument("--dma", action="store_true")  # words pinned for DMA too (no IOMMU here)
    r.add_argument("--garbage", action="store_true")  # reply and deaf faults too
    r.add_argument("--from", dest="first", type=int, default=0)
    r.add_argument("--pci", action="store_true")  # the virtio devices as PCI functions
    r.add_argument("--shared-line", action="store_true")  # blk on rng's INTx line (--pci)
    r.add_argument("--machine", choices=("aclint", "aia"), default="aclint")
    t = sub.add_parser("table")
    t.add_argument("--write", action="store_true")
    t.add_argument("logs", nargs="*")
    s = sub.add_parser("summary")
    s.add_argument("log")
    p = sub.add_parser("replay")
    p.add_argument("log")
    p.add_argument("--back", type=int, default=32)
    p.add_argument("--tries", type=int, default=2)
    p.add_argument("--smp", type=int, default=2)
    args = ap.parse_args()
    if args.cmd == "run":
        return run(args)
    if args.cmd == "replay":
        return replay(args)
    if args.cmd == "summary":
        text = open(args.log, errors="replace").read()
        print(json.dumps(summary(text, "faults: PASS" in text), indent=1, sort_keys=True))
        return 0
    runs = ([summary(t, "faults: PASS" in t) for t in
             (open(p, errors="replace").read() for p in args.logs)] if args.logs
            else committed_runs())
    lines = table(runs)
    if args.write:
        write(lines)
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
