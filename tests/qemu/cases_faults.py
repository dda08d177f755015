"""cases_faults.py: the fault injector (the faults kernel's TACET_SYS_INJECT, kernel/inject) and
init's liveness check (`~MS`, servers/init/liveness.c). injectbad (servers/tests/injectbad.c)
throws bad calls at the injector, each refused with its code, then data faults into what the
entropy device is given (a word of its rings, pinned for DMA, and one holding a DMA address),
found by probes and refused (ENODEV) without TACET_INJECT_DMA, then two faults at the entropy
driver: its stack pointer flipped (it faults at the next read; init restarts it) and an endless
loop at its pc (it stops answering although it runs; init ends it after 200 ms). The read
after each is answered by the next instance. On the shipped kernel the call is ENOSYS.
liveness-spinner-not-neighbour: a spinner (rng, an endless loop thrown in) starves a healthy
neighbour of its hart and priority (blk, waiting for init's service thread): init ends the
spinner, never the neighbour (servers/tests/livespin.c).
liveness-start-spinner: a `~` server that spins before it publishes anything (no endpoint to
ask it through) is ended by the question its start is, its neighbour never
(servers/tests/spinstart.c, livestart.c).
faults-campaign: the short seeded campaign (servers/faults/faults.c; make faults runs longer
ones): 1,000 faults into rng, blk, rtc and the console's uart while the campaign uses them; no
kernel panic, every fault followed by a working driver, every driver answering at the end, every
page and kernel object back, no blk sector read back different from the shadow copy without an
error. Its bootargs are tools/faults.py's, which `make faults` boots. faults-campaign-net: 200
faults into the same drivers and net0's, while tools/faults.py's TCP stream runs from the host
through the echo service: each fault into net waits for the stream to move again; none
unrecovered, the stream flowing at the end, every chunk back whole, both digests equal.
faults-campaign-pci and -pci-aia: 300 faults into the same four drivers with rng and blk as
virtio-pci functions claimed from the pci server (`--pci`): on the PLIC's machine an INTx
line each, on the AIA's an MSI-X vector each; every restart of either goes through pci's
release (the function quieted, its DMA quarantine given back) and a new claim.
faults-campaign-pci-bus: 200 faults into the same drivers and the PCI bus server itself (`p`):
pci faulted and restarted, rng and blk ended with its instance and claiming again from the
next (bus_claimed_again), and everything the other pci cases check.
faults-pci-claim-held: seed 73's faults 317 to 320 replayed (`.f317`): a fault into pci (#317)
leaves it answering but never releasing blk's function, so blk's next instance (after #320)
hangs in its claim; the campaign's watcher reports pci once a use of blk has taken 2 s, and
blk answers again (before: #320 unrecovered, every use after it failed). An at-work fault's
effect depends on where it stops pci (under load #317 may crash it instead): both replays
assert only the bound, nothing unrecovered and the last fault within 10 s.
faults-pci-claim-refused: seed 73's faults 1478 and 1479 (`.f1478`): #1478 leaves pci refusing
blk's claims (-TACET_EINVAL: its next instances exit at once), and #1479 strikes blk at work;
the watcher watches that use too and reports pci after 2 s, so blk answers within the fault's
10 s (before: 54.6 s, the use the fault struck unwatched).
faults-shared-line-holder: seed 73's faults 3 to 6 over the shared line (`.s.f3`): a faulted
rng answers but holds the line masked; init ends it at its limit and blk answers again, nothing
unrecovered (before: six uses of blk given up at their 10 s until a later fault crashed rng).
faults-net-deaf: seed 1162's fault 15 (`.g.f15`), net deaf with the TCP stream running: init
ends it for the interrupt of its own line it never takes, 2 s after, before any report of the
stream's, and the stream flows again (before: only the stream check's INIT_STUCK ended it,
after 10 s)."""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), "tools"))
import faults as campaign  # noqa: E402 (tools/faults.py: the campaign's boot arguments)

RNG = ("-device", "virtio-rng-device")
NET_FAULTS, NET_SEED = 200, 1
PCI_FAULTS, PCI_SEED = 300, 1
BUS_FAULTS, BUS_SEED = 200, 1


class NetStream:
    """tools/faults.py's TCP stream for a case: started at the boot's first output (it
    connects once the echo answers), done once the campaign has said its totals (its final
    checks follow: the connection may end from then on), checked after the run."""
    TOTALS = r"faults: \d+ faults in"

    def __init__(self):
        self.port = campaign.free_port()
        self.totals_said = False
        self.stream = campaign.TcpStream(self.port, NET_SEED,
                                         campaign_done=lambda: self.totals_said)

    def start(self, out):
        if not self.stream.ident:
            self.stream.start()
        return True

    def done(self, out):
        self.totals_said = bool(re.search(self.TOTALS, out))
        return self.totals_said

    def check(self, out):
        self.stream.stopping.set()
        self.stream.join(5)
        return self.stream.problems()


NET_STREAM = NetStream()
NET_DEAF_STREAM = NetStream()


def deaf_net_ended(out):
    """net, deaf (#15), ended by init for the interrupt it never took, once, and before any
    report of the stream's (INIT_STUCK, after the stream was still for 10 s; the stream may be
    slow to move again through the next instance, TCP backing off on a loaded host, so a later
    report is not net's deafness): a list of problems."""
    ended = [m.start() for m in re.finditer(r"init: server net has held its interrupt "
                                            r"unacknowledged for \d+ ms", out)]
    stuck = re.search(r"init: a client of net says it left a request unanswered", out)
    if len(ended) != 1:
        return [f"init ended net {len(ended)} times for its interrupt (want 1)"]
    return ["the stream's report ended net before init did"] if stuck and \
        stuck.start() < ended[0] else []
INJECTBAD_RUN = "init.run=^%uart=console:ns16550a,rng:virtio-rng*3~200,^%injectbad@1"
LIVESPIN_RUN = ("init.run=uart=console:ns16550a@1,blk:virtio-blk*3~10,rng:virtio-rng*3~20,"
                "^%livespin@1[blk=0-63]")
LIVESTART_RUN = "init.run=rng:virtio-rng*3~20,spinstart*3~10,^livestart@1"


def ended_not_before(out, name, limit_ms):
    """Every liveness end of server name in init's lines came at its limit or later (how much
    later is the host's: a case off the deterministic machine, whose host stalls it, cannot
    bound it): a list of problems."""
    return [f"init ended {name} after {ms} ms, before its limit ({limit_ms} ms)"
            for ms in map(int, re.findall(rf"init: server {name} has not answered for (\d+) ms",
                                          out))
            if ms < limit_ms]


def bus_claimed_again(out):
    """pci was restarted, and after one of its restarts rng and blk ended with the instance that
    had granted their functions and claimed them again from the next one, once it had quieted
    every function: a list of problems."""
    for m in re.finditer(r"init: restarting pci \(restart \d+\)", out):
        rest = out[m.end():]
        quiet = re.search(r"pci: instance \d+: every function quiet", rest)
        if not quiet:
            continue
        before, after = rest[:quiet.start()], rest[quiet.end():]
        upto = re.search(r"init: restarting pci ", after)  # the next restart, if any
        after = after[:upto.start()] if upto else after
        if all(f"{d}: the pci instance that granted its device ended; ending" in before
               for d in ("rng", "blk")) and \
                all(re.search(rf"pci: 00:0{slot}\.0 claimed", after) for slot in (1, 3)):
            return []
    return ["no restart of pci after which rng and blk ended and claimed from its next instance"]


def fault_took_under(k, limit_us):
    """The check that fault #k's line says a time to a working driver under limit_us."""
    def check(out):
        m = re.search(rf"faults: #{k} .*-> \S+ in (\d+) us", out)
        return ([] if m and int(m.group(1)) < limit_us else
                [f"fault #{k} took {m.group(1) if m else '?'} us, not under {limit_us}"])
    return check


def ends_counted(out, want):
    """The liveness ends of each server in init's lines ("has not answered"), against want
    (server -> count): a list of problems, each with the count seen."""
    return [f"init ended {name} {got} times for not answering (want {n})"
            for name, n in want.items()
            for got in [len(re.findall(rf"init: server {name} has not answered", out))]
            if got != n]


CASES = [
    case("inject-bad-calls",
         [r"injectbad: a first read of rng: PASS",
          r"injectbad: without the trace authority \(slot 0\) -> .*: PASS",
          r"injectbad: into its own thread \(no driver\) -> .*: PASS",
          r"injectbad: into init's thread \(no driver\) -> .*: PASS",
          r"injectbad: into no thread -> .*: PASS",
          r"injectbad: a hang with a value -> .*: PASS",
          r"injectbad: garbage for a reply made from 0 -> .*: PASS",
          r"injectbad: a deaf driver with a value -> .*: PASS",
          r"injectbad: a busy fault into rng, which no interrupt stopped -> .*: PASS",
          r"injectbad: PROCESS_END of an empty slot -> .*: PASS",
          r"injectbad: PROCESS_END of an endpoint -> .*: PASS",
          r"injectbad: PROCESS_END through a watch-only copy of itself -> .*: PASS",
          r"injectbad: a probe finds a word of rng pinned for DMA: PASS",
          r"injectbad: a probe finds a word of rng holding a DMA address: PASS",
          r"injectbad: a data fault into the word pinned for DMA -> .*: PASS",
          r"injectbad: a data fault into the DMA address -> .*: PASS",
          r"injectbad: a read after both: answered by the same instance: PASS",
          r"injectbad: rng's sp, bit 40, flipped: PASS",
          r"init: server rng faulted: cause \d+",
          r"injectbad: a read after rng's sp flipped: answered \(by its next instance\): PASS",
          r"injectbad: the flipped thread has ended: refused: PASS",
          r"injectbad: an endless loop at rng's pc: PASS",
          r"init: server rng has not answered for \d+ ms, though it ran; ending it",
          r"injectbad: a read after rng's hang: answered \(by its next instance\): PASS",
          r"injectbad: 29 checks, 0 failed",
          r"init: power off requested by injectbad"],
         smp=2, bootargs=INJECTBAD_RUN, qemu_args=RNG, kernel="faults", timeout=60,
         check=lambda out: ended_not_before(out, "rng", 200)),
    # The PCI bus server is a driver to the injector: it maps the bus's configuration space
    # (a device's registers) though it binds no line; a server with neither is refused. A
    # fault into pci (its stack pointer) ends it at its next call (init's question, `~1000`);
    # rng, whose claim was that instance's, ends with it and comes back through the next.
    case("inject-pci",
         [r"injectpci: a first read of rng over virtio-pci: PASS",
          r"injectpci: a probe into pci's thread \(the ECAM mapped, no line bound\) -> 0: PASS",
          r"injectpci: a probe into ipc_server's thread \(no line, no device\) -> .*: PASS",
          r"injectpci: pci's sp, bit 40, flipped: PASS",
          r"init: server pci faulted: cause \d+[\s\S]*"
          r"rng: the pci instance that granted its device ended; ending",
          r"injectpci: rng ended with the pci instance and came back: PASS",
          r"injectpci: a read after pci's fault: answered by rng's next instance: PASS",
          r"injectpci: 6 checks, 0 failed",
          r"init: power off requested by injectpci"],
         smp=2, bootargs="init.run=^%uart=console:ns16550a,"
                         "pci:pci-host-ecam-generic+pci-mmio32+pci-intx*3~1000,rng*3,"
                         "ipc_server=ipc,^%injectpci@1",
         qemu_args=("-device", "virtio-rng-pci,addr=2"), kernel="faults", timeout=60),
    # the same server on the shipped kernel: no injector there
    case("inject-none-in-shipped-kernel",
         [r"injectbad: no injector in this kernel \(.*\): PASS",
          r"init: power off requested by injectbad"],
         smp=2, bootargs=INJECTBAD_RUN, qemu_args=RNG, timeout=30),
    # A server whose entry says `~` answers for as long as the system runs: its end is a
    # failure whatever status it said, and `*N` restarts it (a text fault in the campaign made
    # rtc leave its loop and exit with 0, and init left the service gone for good). hello
    # exits 0 at once: restarted twice, then given up.
    case("liveness-exit-is-failure",
         [r"init: server hello finished with status 0",
          r"init: server hello ended, but its entry \(~100\) says it answers for good: a failure",
          r"init: restarting hello \(restart 2\)",
          r"init: server hello failed \(status -12\) after 2 restarts; giving up"],
         smp=2, bootargs="init.run=^%uart=console:ns16550a,hello*2~100",
         console_input=(r"giving up", "poweroff\r"), timeout=30),
    # A spinner starves a healthy server's question: rng spins (an endless loop thrown in) on
    # hart 0 at the drivers' priority while blk, on the same hart at the same priority, waits
    # for init's service thread (this client's grant), which waits for that hart. blk's
    # question passes its 10 ms unanswered although blk never ran since it was asked: init lets
    # it wait and ends rng, whose question goes unanswered although it ran. Counted from init's
    # lines: rng ended once, blk never (the old rule ended blk first, then rng).
    case("liveness-spinner-not-neighbour",
         [r"livespin: INFO_PROCESS of slot 4096 -> .*: PASS",
          r"livespin: INFO_PROCESS of an empty slot -> .*: PASS",
          r"livespin: INFO_PROCESS of an endpoint -> .*: PASS",
          r"livespin: INFO_PROCESS through a watch-only copy of itself -> .*: PASS",
          r"livespin: INFO_PROCESS into too short a buffer -> .*: PASS",
          r"livespin: INFO_PROCESS into an unmapped buffer -> .*: PASS",
          r"livespin: INFO_PROCESS of itself: its thread, running, a sleep no preemption: PASS",
          r"livespin: an endless loop at rng's pc: PASS",
          r"init: server blk did not answer within 10 ms, but was kept from running "
          r"\(in a call\): its question waits, up to 40 ms",
          r"init: server rng has not answered for \d+ ms, though it ran; ending it",
          r"livespin: INFO_PROCESS of itself: its yield to the reader counted as a preemption: "
          r"PASS",
          r"livespin: blk's open answered after \d+ ms",
          r"livespin: blk's open answered, within the bound: PASS",
          r"livespin: rng answered again after \d+ ms",
          r"livespin: the read after rng's loop answered .*: PASS",
          r"livespin: rng's looping instance has ended: PASS",
          r"livespin: blk works \(a session, a sector read\): PASS",
          r"livespin: 15 checks, 0 failed",
          r"init: power off requested by livespin"],
         smp=2, bootargs=LIVESPIN_RUN, qemu_args=campaign.DEVICES, needs=["build/blk-test.img"],
         forbid=(r"PANIC", r"FAIL", r"init: server blk has not answered",
                 r"blk ended while it waited"),
         check=lambda out: ends_counted(out, {"rng": 1, "blk": 0}),
         kernel="faults", icount=True, timeout=120),
    # A server that spins before it publishes anything (a driver hung in its set-up: the
    # campaign's endless loop thrown into rng while it opened its device) has no endpoint to be
    # asked through: its start is its question, answered by its first publish, with a longer
    # limit (ALIVE_START_TIMES of them). spinstart's first instance spins on hart 0 at the
    # drivers' priority beside rng: init ends the spinner (before, it never asked it, and the
    # lookup failed after its 1,000 tries), never rng; the second instance answers.
    case("liveness-start-spinner",
         [r"init: server spinstart has not answered for \d+ ms \(nothing published since its "
          r"start\), though it ran; ending it",
          r"init: restarting spinstart \(restart 1\)",
          r"livestart: spinstart answered after \d+ ms",
          r"livestart: spinstart looked up and called: PASS",
          r"livestart: the answer is its second instance's: PASS",
          r"livestart: within the bound: PASS",
          r"livestart: a read of rng, its neighbour: PASS",
          r"livestart: 4 checks, 0 failed",
          r"init: power off requested by livestart"],
         smp=2, bootargs=LIVESTART_RUN, qemu_args=RNG,
         forbid=(r"PANIC", r"FAIL", r"init: server rng has not answered"),
         check=lambda out: ends_counted(out, {"spinstart": 1, "rng": 0}),
         icount=True, timeout=60),
    case("faults-campaign",
         [r"faults: 1000 faults into 4 drivers, seed \"1000\.1\.rbtu\"",
          r"faults: 1000 faults in \d+ ms",
          # faults thrown at work (the catcher's) into each driver: some landed
          r"faults: rng at work: .*; none [1-9]\d* ",
          r"faults: blk at work: .*; none [1-9]\d* ",
          r"faults: rtc at work: .*; none [1-9]\d* ",
          r"faults: uart at work: .*; none [1-9]\d* ",
          r"faults: rng answers at the end: PASS", r"faults: blk answers at the end: PASS",
          r"faults: rtc answers at the end: PASS", r"faults: uart answers at the end: PASS",
          r"faults: memory: .*: PASS", r"faults: unrecovered: 0: PASS",
          # the totals tools/faults.py's summary keeps (blk_held_by_lib, blk_buffer_changed)
          r"faults: blk waits that failed with the request still held by lib: \d+; writes "
          r"whose buffer changed before they completed: \d+",
          r"faults: silent blk mismatches: 0: PASS", r"faults: PASS",
          r"init: power off requested by faults"],
         smp=2, bootargs=campaign.bootargs(1000, 1, "rbtu"), qemu_args=campaign.DEVICES,
         needs=["build/blk-test.img"], kernel="faults", timeout=600),
    # The two fault types of the `g` option: garbage in a driver's next reply (TACET_INJECT_REPLY:
    # a client told an error where a status word became garbage; rng's entropy stays
    # undetectable garbage) and a driver deaf to its notification (TACET_INJECT_DEAF: blk's
    # completions never seen, lib's wait reports it, init restarts it, #9 of this seed).
    case("faults-campaign-garbage",
         [r"faults: 400 faults into 4 drivers, seed \"400\.1150\.rbtu\.g\"",
          r"faults: #9 blk deaf where=0 value=0 -> restart in \d+ us",
          r"faults: #\d+ (blk|rtc|uart) reply where=0 value=\S+ (at-work )?-> error in",
          r"faults: 400 faults in \d+ ms",
          r"faults: rng answers at the end: PASS", r"faults: blk answers at the end: PASS",
          r"faults: rtc answers at the end: PASS", r"faults: uart answers at the end: PASS",
          r"faults: memory: .*: PASS", r"faults: unrecovered: 0: PASS",
          r"faults: silent blk mismatches: 0: PASS", r"faults: PASS",
          r"init: power off requested by faults"],
         smp=2, bootargs=campaign.bootargs(400, 1150, "rbtu", options=".g"),
         qemu_args=campaign.DEVICES, needs=["build/blk-test.img"], kernel="faults",
         timeout=300),
    # The same with net0 among the drivers (DRIVERS=rbtun): its faults wait for the host's TCP
    # stream, so fewer of them.
    case("faults-campaign-net",
         [rf"faults: {NET_FAULTS} faults into 5 drivers, seed \"{NET_FAULTS}\.{NET_SEED}\.rbtun\"",
          rf"faults: {NET_FAULTS} faults in \d+ ms",
          r"faults: net answers at the end: PASS",
          r"faults: the TCP stream through net0 flows again after the last fault .*: PASS",
          r"faults: memory: .*: PASS", r"faults: unrecovered: 0: PASS",
          r"faults: silent blk mismatches: 0: PASS", r"faults: PASS",
          r"init: power off requested by faults"],
         smp=2, bootargs=campaign.bootargs(NET_FAULTS, NET_SEED, "rbtun"),
         qemu_args=campaign.DEVICES + campaign.net_devices(NET_STREAM.port),
         console_input=[(NET_STREAM.start, ""), (NET_STREAM.done, "")],
         check=NET_STREAM.check, needs=["build/blk-test.img"], kernel="faults", timeout=600),
    # Seed 1162's fault 15 (`.g.f15`): net deaf to its notification, the host's TCP stream
    # running. Frames arrive, net's line (its own) fires and is masked, and net never takes
    # the signal: init ends it once it has held that interrupt 2 s in its receive, before the
    # stream's report, and the stream flows again through its next instance. Before, net
    # answered every question and only the campaign's stream check, still for 10 s, had it
    # ended (10.47 s to a working driver in that run).
    case("faults-net-deaf",
         [r"faults: 1 faults into 5 drivers, seed \"1\.1162\.rbtun\.g\.f15\"",
          r"init: server net has held its interrupt unacknowledged for \d+ ms \(it answers "
          r"calls, but its device is not served\); ending it",
          r"faults: #15 net deaf where=0 value=0 -> restart in \d+ us",
          r"faults: net answers at the end: PASS",
          r"faults: unrecovered: 0: PASS", r"faults: PASS",
          r"init: power off requested by faults"],
         smp=2, bootargs=campaign.bootargs(1, 1162, "rbtun", options=".g.f15"),
         qemu_args=campaign.DEVICES + campaign.net_devices(NET_DEAF_STREAM.port),
         console_input=[(NET_DEAF_STREAM.start, ""), (NET_DEAF_STREAM.done, "")],
         check=lambda out: NET_DEAF_STREAM.check(out) + deaf_net_ended(out),
         needs=["build/blk-test.img"], kernel="faults", timeout=300),
    # The same four drivers with rng and blk behind the pci server (tools/faults.py --pci):
    # each restart of theirs is a release and a claim; rng and blk have an INTx line each on
    # the PLIC's machine (slots 1 and 3), an MSI-X vector each on the AIA's.
    *(case(f"faults-campaign-pci{suffix}",
           [rf"faults: {PCI_FAULTS} faults into 4 drivers, seed "
            rf"\"{PCI_FAULTS}\.{PCI_SEED}\.rbtu\.p{opt}\"",
            r"pci: 00:01\.0 1af4:1005 .* irq 33", r"pci: 00:03\.0 1af4:1001 .* irq 3[2-5]",
            line_on, r"pci: 00:01\.0 released \(its driver ended\)",
            r"pci: 00:03\.0 released \(its driver ended\)",
            rf"faults: {PCI_FAULTS} faults in \d+ ms",
            r"faults: rng answers at the end: PASS", r"faults: blk answers at the end: PASS",
            r"faults: memory: .*: PASS", r"faults: unrecovered: 0: PASS",
            r"faults: silent blk mismatches: 0: PASS", r"faults: PASS",
            r"init: power off requested by faults"],
           variant=machine, smp=2,
           bootargs=campaign.bootargs(PCI_FAULTS, PCI_SEED, "rbtu", options=".p" + opt),
           qemu_args=campaign.PCI_DEVICES, needs=["build/blk-test.img"], kernel="faults",
           timeout=600)
      for suffix, machine, opt, line_on in (
          ("", "aclint", "", r"pci: 00:03\.0 INTx on"),
          ("-aia", "aia", ".a", r"pci: 00:03\.0 vector 0: line \d+"))),
    # The PCI bus server among the faulted drivers (`p`): it is asked whether it is alive, and
    # a fault that ends it ends rng and blk (a claim lives no longer than the instance that
    # granted it), which claim again from its next instance.
    case("faults-campaign-pci-bus",
         [rf"faults: {BUS_FAULTS} faults into 5 drivers, seed "
          rf"\"{BUS_FAULTS}\.{BUS_SEED}\.rbtup\.p\"",
          r"faults: #\d+ pci \S+ .*-> restart in \d+ us",
          rf"faults: {BUS_FAULTS} faults in \d+ ms",
          r"faults: pci at (?:rest|work): .*; none \d+ error \d+ restart [1-9]",
          r"faults: rng answers at the end: PASS", r"faults: blk answers at the end: PASS",
          r"faults: pci answers at the end: PASS",
          r"faults: memory: .*: PASS", r"faults: unrecovered: 0: PASS",
          r"faults: silent blk mismatches: 0: PASS", r"faults: PASS",
          r"init: power off requested by faults"],
         smp=2, bootargs=campaign.bootargs(BUS_FAULTS, BUS_SEED, "rbtup", options=".p"),
         qemu_args=campaign.PCI_DEVICES, needs=["build/blk-test.img"], kernel="faults",
         check=bus_claimed_again, timeout=600),
    # The next two replays throw an at-work fault into pci first, whose effect depends on the
    # instruction the catcher stopped pci at: on an idle host it is seed 73's (the watcher's
    # report of pci follows), under load it may crash pci instead (CI saw #317 restart it).
    # So each asserts the campaign's bound whichever effect it had: nothing unrecovered, the
    # last fault answered within its 10 s.
    # Seed 73's faults 317 to 320 (its run of 2,000 with `--alive-ms 100`): #317, pci's pc
    # flipped at work, leaves pci answering its question but releasing nothing, so after #320
    # (blk's pc: it crashes) blk's next instances hang in their claim and never publish. The
    # campaign's use of blk waits in lib's reconnect (up to 10 s for an instance) and returned
    # only after the fault's 10 s: its report of pci came too late, and every later use failed.
    # The watcher reports pci once the use has taken 2 s; pci's next instance grants blk's
    # function and the fault is a restart.
    case("faults-pci-claim-held",
         [r"faults: 4 faults into 3 drivers, seed \"4\.73\.rbp\.p\.f317\"",
          r"faults: #317 pci reg-pc where=0x20 value=0x8 at-work -> ",
          r"faults: #320 blk reg-pc where=0x20 value=0xf -> restart in \d+ us",
          r"faults: blk answers at the end: PASS", r"faults: unrecovered: 0: PASS",
          r"faults: PASS", r"init: power off requested by faults"],
         smp=2, bootargs=campaign.bootargs(4, 73, "rbp", 100, ".p.f317"),
         qemu_args=campaign.PCI_DEVICES, needs=["build/blk-test.img"], kernel="faults",
         check=fault_took_under(320, 10000000), timeout=180),
    # Seed 73's faults 1478 and 1479 (own lines): #1478, pci's sp flipped at work, leaves it
    # refusing blk's claims (-TACET_EINVAL: each instance of blk exits at once, thousands of
    # them); #1479 is a hang thrown into blk at work, and the use it strikes waits in lib's
    # reconnect for an instance. The watcher watches the catcher's uses as recover's and
    # reports pci after 2 s: blk answers well within the fault's 10 s (the old campaign: 54.6 s).
    case("faults-pci-claim-refused",
         [r"faults: 2 faults into 3 drivers, seed \"2\.73\.rbp\.p\.f1478\"",
          r"faults: #1479 blk hang .* at-work -> restart in \d+ us",
          r"faults: unrecovered: 0: PASS", r"faults: PASS",
          r"init: power off requested by faults"],
         smp=2, bootargs=campaign.bootargs(2, 73, "rbp", 100, ".p.f1478"),
         qemu_args=campaign.PCI_DEVICES, needs=["build/blk-test.img"], kernel="faults",
         check=fault_took_under(1479, 10000000), timeout=180),
    # Seed 73's faults 3 to 6 with rng and blk on one INTx line: #3 (a saved register of rng's
    # service loop, the one holding the NOTIFY label: it takes its line's events for calls)
    # leaves rng answering but owing the line's acknowledgement, so blk's completions stop.
    # init ends rng at its limit (its question stands while it holds the shared line's
    # interrupt, across blk's restarts, which leave it alone on the line for a time), and
    # blk answers again: nothing unrecovered. Before, rng answered every question and six uses
    # of blk were given up at their 10 s until #6 crashed rng (the campaign now waits for a
    # given-up request again before the next; lib holds none at the end).
    case("faults-shared-line-holder",
         [r"faults: 4 faults into 3 drivers, seed \"4\.73\.rbp\.p\.s\.f3\"",
          r"faults: #3 rng reg-saved where=0x13 value=0xe -> ",
          r"init: server rng has not answered for \d+ ms \(it answers calls, but holds a shared "
          r"line's interrupt unacknowledged: the line's other drivers wait for it\)",
          r"faults: #6 rng reg-sp where=0x2 value=0x3c -> restart",
          r"faults: blk answers at the end: PASS",
          r"faults: unrecovered: 0: PASS",
          r"faults: blk requests lib still holds at the end: 0: PASS", r"faults: PASS",
          r"init: power off requested by faults"],
         smp=2, bootargs=campaign.bootargs(4, 73, "rbp", 100, ".p.s.f3"),
         qemu_args=campaign.PCI_DEVICES_SHARED, needs=["build/blk-test.img"],
         kernel="faults", forbid=(r"PANIC", r"latent blk after #3 -> unrecovered"),
         timeout=300),
]
