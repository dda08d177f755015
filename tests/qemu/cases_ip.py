"""cases_ip.py: the IP stack (servers/ip: lwIP over servers/net's rings) on QEMU's user network
(`-netdev user`: DHCP leases 10.0.2.15, the gateway 10.0.2.2 answers ARP and ping): the lease,
the shell's ping to the gateway, and the echo service (servers/echo, port 7, over ip's sockets)
from host clients through forwarded ports: UDP datagrams checked byte for byte, a TCP stream
checked by digest; hostile socket clients; a client that dies holding sockets.

The host clients run in the test runner's process: a console_input step whose pattern is a
function of the output starts the client once the lease is printed, and the next step's
pattern (the client finished) types `poweroff`; the case's check reads what the client found.
Each case takes free host ports of its own (bound to port 0 and let go), so cases and other
runs on the machine do not collide. Every wait is for a printed line or the client's end; the
client's own sockets time out (a lost datagram, a stalled stream) and say so."""

import hashlib
import random
import re
import socket
import threading

IP_RUN = "init.run=^%uart=console:ns16550a,net=net0:virtio-net,ip,echo"
ECHO_READY = "echo: echoing on UDP and TCP port 7"
LEASE = DEFAULT_LEASE  # cases.py: "ip: 10.0.2.15/24 gw 10.0.2.2 via net0"
UDP_DATAGRAMS = 10000
UDP_WINDOW = 8          # datagrams in flight
TCP_BYTES = 10 << 20


# Two virtio-net devices on one QEMU hub: net0 ip's, net1 a raw client's.
HUB = ("-netdev", "hubport,id=h0,hubid=0", "-device", "virtio-net-device,netdev=h0",
       "-netdev", "hubport,id=h1,hubid=0", "-device", "virtio-net-device,netdev=h1")


def free_port(kind):
    """A host port on 127.0.0.1 free now for kind (socket.SOCK_DGRAM or SOCK_STREAM)."""
    with socket.socket(socket.AF_INET, kind) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def net_args(forwards):
    """QEMU arguments: a virtio-net device on the user network, forwarding each
    (proto, host port, guest port) from 127.0.0.1."""
    fwd = "".join(f",hostfwd={p}:127.0.0.1:{h}-:{g}" for p, h, g in forwards)
    return ("-netdev", f"user,id=n0{fwd}", "-device", "virtio-net-device,netdev=n0")


class HostClient:
    """A client run in a thread once the lease is printed: start(out) is a console_input
    pattern (true once it has started), done(out) the next step's (true once it has ended),
    check(out) the case's check (what it found wrong)."""

    def __init__(self, name, run, ready=()):
        self.name, self.run, self.thread, self.problems = name, run, None, []
        self.ready = [spliced(LEASE), *ready]

    def start(self, out):
        if self.thread is None and all(r(out) for r in self.ready):
            self.thread = threading.Thread(target=self.guarded, daemon=True)
            self.thread.start()
        return self.thread is not None

    def guarded(self):
        try:
            self.problems += self.run()
        except Exception as e:  # a timeout, a refused connection: the case's failure
            self.problems.append(f"{self.name}: {type(e).__name__}: {e}")

    def done(self, out):
        return self.thread is not None and not self.thread.is_alive()

    def check(self, out):
        if self.thread is None:
            return [f"{self.name}: never started (no lease)"]
        return self.problems


def udp_echo(port, count):
    """count datagrams of 1 to 1,472 bytes to 127.0.0.1:port, UDP_WINDOW in flight; each must
    come back once, byte for byte. Problems found, as a list."""
    rng = random.Random(port)
    sent = {}
    got = 0
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.settimeout(5)
        s.connect(("127.0.0.1", port))
        nxt = 0
        while got < count:
            while nxt < count and len(sent) < UDP_WINDOW:
                body = nxt.to_bytes(4, "big") + rng.randbytes(rng.randint(0, 1468))
                sent[nxt] = body
                s.send(body)
                nxt += 1
            try:
                data = s.recv(2048)
            except socket.timeout:
                return [f"udp echo: {got} of {count} back, then none for 5 s "
                        f"({len(sent)} outstanding, first {min(sent)})"]
            seq = int.from_bytes(data[:4], "big") if len(data) >= 4 else -1
            if sent.get(seq) != data:
                return [f"udp echo: datagram {seq} came back wrong or twice "
                        f"({len(data)} bytes)"]
            del sent[seq]
            got += 1
    return []


def udp_echo_through(port, count, lost_max):
    """count datagrams to 127.0.0.1:port one at a time, each sent again after 1 s without its
    echo (at most lost_max times in all: the service is away while it restarts); each that
    comes back must be the one sent, byte for byte. Problems found, as a list."""
    rng = random.Random(port)
    lost = 0
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.settimeout(1)
        s.connect(("127.0.0.1", port))
        for seq in range(count):
            body = seq.to_bytes(4, "big") + rng.randbytes(rng.randint(0, 1000))
            while True:
                s.send(body)
                try:
                    data = s.recv(2048)
                    while data[:4] != body[:4]:  # a late echo of one sent again
                        data = s.recv(2048)
                    break
                except socket.timeout:
                    lost += 1
                    if lost > lost_max:
                        return [f"udp echo: datagram {seq}: no echo after {lost_max} retries"]
            if data != body:
                return [f"udp echo: datagram {seq} came back wrong ({len(data)} bytes)"]
    return []


def tcp_echo(port, total):
    """total bytes to 127.0.0.1:port while reading the echo back in another thread; the
    bytes back must have the digest of the bytes sent. Problems found, as a list."""
    rng = random.Random(port)
    data = rng.randbytes(total)
    back = hashlib.sha256()
    received = [0]
    errors = []

    def reader(s):
        try:
            while received[0] < total:
                chunk = s.recv(65536)
                if not chunk:
                    break
                back.update(chunk)
                received[0] += len(chunk)
        except OSError as e:
            errors.append(f"tcp echo: reading: {e}")

    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.settimeout(20)
        t = threading.Thread(target=reader, args=(s,), daemon=True)
        t.start()
        s.sendall(data)
        t.join(120)
    if errors:
        return errors
    if received[0] != total:
        return [f"tcp echo: {received[0]} of {total} bytes back"]
    if back.digest() != hashlib.sha256(data).digest():
        return [f"tcp echo: {total} bytes back, digest differs"]
    return []


def echo_case(name, proto, run, timeout, guest_port=7, bootargs=IP_RUN, expect=(),
              ready=(ECHO_READY,)):
    """A host client (run, given the host port) through a forward to guest_port, once the
    lease and every pattern of ready are printed; then poweroff."""
    kind = socket.SOCK_DGRAM if proto == "udp" else socket.SOCK_STREAM
    port = free_port(kind)
    client = HostClient(name, lambda: run(port), [spliced(r) for r in ready])
    return case(name, [spliced(LEASE), *expect, r"powering off"], bootargs=bootargs, smp=2,
                qemu_args=net_args([(proto, port, guest_port)]), timeout=timeout,
                console_input=[(client.start, ""), (client.done, "poweroff\r")],
                check=client.check)



CASES = [
    # DHCP: ip prints its lease from QEMU's user network once.
    case("ip-dhcp-lease",
         [r"ip: lwIP 2\.1\.3 on net0, MAC 52:54:00:12:34:56; DHCP started", spliced(LEASE),
          r"powering off"],
         bootargs=IP_RUN, smp=2, qemu_args=net_args([]), timeout=30,
         console_input=(spliced(LEASE), "poweroff\r")),
    # The shell's ping asks ip for each echo request: 100 of 100 answered by the gateway.
    case("ip-ping-gateway",
         [r"64 bytes from 10\.0\.2\.2: icmp_seq=1 ttl=\d+ time=\d+\.\d{3} ms",
          r"64 bytes from 10\.0\.2\.2: icmp_seq=100 ttl=\d+ time=\d+\.\d{3} ms",
          r"100 packets transmitted, 100 received, 0% packet loss", r"powering off"],
         bootargs=IP_RUN, smp=2, qemu_args=net_args([]), timeout=60,
         console_input=[(spliced(LEASE), "ping 10.0.2.2 100\r"),
                        (r"% packet loss", "poweroff\r")],
         forbid=(r"PANIC", r"FAIL", r"no reply from")),
    # UDP echo: datagrams from a host client through the forwarded port to servers/echo (its
    # socket's rings through ip), byte for byte.
    echo_case("ip-udp-echo", "udp", lambda port: udp_echo(port, UDP_DATAGRAMS), 180),
    # TCP echo: a stream through the forwarded port, back with the same digest.
    echo_case("ip-tcp-echo", "tcp", lambda port: tcp_echo(port, TCP_BYTES), 300,
              expect=[r"echo: connection \d+ accepted",
                      rf"echo: connection \d+ closed after {TCP_BYTES} bytes echoed"]),
    # The network driver dies mid-stream: net_dying's first instance faults once it has handed
    # ip 300 frames (DMA offered into ip's buffers); init resets the card and restarts it, ip's
    # netdev reaches the new instance, TCP retransmits what was lost: the 10 MiB come back whole.
    echo_case("ip-tcp-echo-net-dies", "tcp", lambda port: tcp_echo(port, TCP_BYTES), 300,
              bootargs="init.run=^%uart=console:ns16550a,net_dying=net0:virtio-net*1,ip,echo",
              expect=[r"net_dying: instance 0: 300 frames received; faulting",
                      r"init: net_dying's devices: 1 reset, \d+ pages back from their DMA "
                      r"quarantine",
                      rf"echo: connection \d+ closed after {TCP_BYTES} bytes echoed"]),
    # A new instance refuses the session: net_refusing's first instance faults as net_dying's,
    # its second answers ip's NET_START with -TACET_EINVAL (as a faulty one may) and faults
    # 200 ms later; ip says the refusal, keeps the refuser watched, and reaches the third
    # instance at its end: the 10 MiB come back whole. (ip gave up on net0 at the refusal, and
    # the stream stopped for good, when lib's netdev took a refusal for a final answer.)
    echo_case("ip-tcp-echo-net-refuses", "tcp", lambda port: tcp_echo(port, TCP_BYTES), 300,
              bootargs="init.run=^%uart=console:ns16550a,net_refusing=net0:virtio-net*2,ip,"
                       "echo",
              expect=[r"net_dying: instance 0: 300 frames received; faulting",
                      r"net_refusing: instance 1: refusing a session's start",
                      r"ip: net0: invalid argument",
                      r"net_refusing: instance 1: faulting after its refusal",
                      r"init: restarting net_refusing \(restart 2\)",
                      rf"echo: connection \d+ closed after {TCP_BYTES} bytes echoed"]),
    # UDP datagrams held over the driver's death: udpheld, a raw client of net1 on the hub of
    # ip_static's card (net_dying on net0, faulting once it has handed ip 300 frames), keeps
    # 256 datagrams of 16 to 1,040 bytes in flight to the echo service, more than echo's
    # buffers: ip holds many in its socket's queue, in net0's buffers, when net0 dies. The next
    # instance is offered those buffers again and fills them; ip must drop each datagram held
    # over the death unread (IP_BUFFERS' rx_stale), never hand over what the buffer holds now.
    # Every echo is one datagram sent, byte for byte, once; after ip reattaches 1,000 fresh
    # ones at 256 in flight all come back; ip holds none of net0's buffers at the end.
    case("ip-udp-held-net-dies",
         [r"net_dying: instance 0: 300 frames received; faulting",
          r"init: net_dying's devices: 1 reset, \d+ pages back from their DMA quarantine",
          r"udpheld: net0 died mid-stream: PASS", r"udpheld: ip echoes again: PASS",
          r"udpheld: net0 found dead after \d+ datagrams sent, \d+ sent in all, \d+ of them "
          r"echoed",
          r"udpheld: 1000 of 1000 fresh datagrams echoed after the death: PASS",
          r"udpheld: every echo one datagram sent, byte for byte, once \(\d+ echoed of \d+ "
          r"sent; 0 wrong, 0 twice\): PASS",
          r"udpheld: ip answers IP_COUNTS and IP_BUFFERS: PASS",
          r"udpheld: \d+ datagrams lost across net0's death, ip dropped \d+ as held over it "
          r"\(\d+ received, \d+ sent\): PASS",
          r"udpheld: ip's dropped \(\d+\) counts them: PASS",
          r"udpkeep: ip reached net's next instance \(\d+ datagrams dropped as held over "
          r"net's end so far, \d+ of net's buffers held\); echoing",
          r"udpheld: ip reached net0's next instance once \(1\) and holds none of its buffers "
          r"at the end \(0\): PASS",
          r"udpheld: all checks passed", r"init: power off requested by udpheld"],
         bootargs="init.run=net_dying=net0:virtio-net#0*1,ip_static=ip,udpkeep,"
                  "net=net1:virtio-net#1,^udpheld@1", smp=2, qemu_args=HUB, timeout=180,
         forbid=(r"PANIC", r"FAIL", r"of (?!net_dying )\S+ faulted",
                 r"server (?!net_dying )\S+ (faulted|failed)", r"init: restarting (?!net_dying )",
                 r"udpkeep: (?!UDP port 7 bound|ip reached)",
                 r"ip: (?!10\.0\.9\.1/24|lwIP)")),
    # The IP stack dies with a client's session open: ip_dying's first instance faults once it
    # has handed the echo service 200 messages; echo's wait learns it (ip's endpoint watched:
    # -TACET_EDEAD), echo ends and init restarts both; ip leases again, echo opens a session on
    # the new instance, and the host's datagrams are echoed again (1,000 in all, each sent
    # again until it is: the service is away for a moment).
    echo_case("ip-dies", "udp", lambda port: udp_echo_through(port, 1000, 60), 120,
              bootargs="init.run=^%uart=console:ns16550a,net=net0:virtio-net,ip_dying=ip*1,"
                       "echo*1",
              expect=[r"ip_dying: instance 0: 200 messages handed; faulting",
                      r"init: restarting ip_dying \(restart 1\)",
                      r"echo: wait: ",
                      r"init: restarting echo \(restart 1\)",
                      r"(?s)ip: 10\.0\.2\.15/24 gw 10\.0\.2\.2 via net0.*"
                      r"ip: 10\.0\.2\.15/24 gw 10\.0\.2\.2 via net0",
                      r"(?s)(echo: echoing on UDP and TCP port 7.*){2}"]),
    # Hostile clients beside a good one: sockhostile's sessions lie in their rings (a tail
    # ahead, a descriptor outside the area: stopped; a message for no socket: dropped), while
    # 1,000 datagrams go through the echo service unaffected.
    echo_case("sock-hostile", "udp", lambda port: udp_echo(port, 1000), 120,
              bootargs=IP_RUN + ",sockhostile",
              expect=[r"sockhostile: a tx_ready tail 1000 ahead stops the session: PASS",
                      r"sockhostile: a descriptor outside the transmit area stops the session: "
                      r"PASS",
                      r"sockhostile: a new session after them works: PASS",
                      r"sockhostile: a message for no socket is dropped, its buffer given "
                      r"back: PASS",
                      r"sockhostile: and the session goes on: PASS",
                      r"sockhostile: all checks passed",
                      r"ip: client \d+'s session stopped: its rings lied \(2 stopped so far\)"]),
    # A client that ends holding sockets, while ip waits inside a ping call (the end comes
    # there, not in the service loop): ip ends its session and frees them, so that another
    # client (sockheir, a session of its own) binds the same ports. sockdie keeps ip busy only
    # once sockheir has said (by binding UDP port 2008) that it saw port 2007 taken.
    case("sock-client-dies",
         [r"sockdie: UDP and TCP port 2007 bound, listening: success",
          r"sockdie: ending with its sockets open, ip waiting in a ping: success",
          r"sockheir: port 2007 taken by sockdie, then free after its end: PASS",
          r"init: power off requested by sockheir"],
         bootargs="init.run=net=net0:virtio-net,ip,sockdie,^sockheir", smp=2,
         qemu_args=net_args([]), timeout=60),
]

# The same driver and stack over virtio-net-pci (a transitional 1af4:1000 in slot 2 of the PCI
# host's root bus; no virtio-mmio transport for net in init.run=, so the kit's probe claims it
# from the PCI server): INTx on the PLIC's machine, MSI-X vector 0 on the AIA's (line 97 on
# net's hart), which both queues signal. The lease, 1,000 UDP datagrams from the host through
# the echo service byte for byte, then the shell's ping: 100 of 100.
PCI_NET_RUN = ("init.run=^%uart=console:ns16550a,pci:pci-host-ecam-generic+pci-mmio32+pci-intx,"
               "net=net0@1/110,ip@1,echo@1")
PCI_NET_LINE = {"aclint": r"pci: 00:02.0 INTx on",
                "aia": r"pci: 00:02.0 vector 0: line 97, hart \d+\n"}
PCI_NET_READY = {
    "aclint": r"net: net0: over virtio-pci, one queue pair, both queues on the INTx line 3[2-5] "
              r"\(count 0 at the start\)\n",
    "aia": r"net: net0: over virtio-pci, 1 queue pair\(s\) \(max_virtqueue_pairs 1, 2 harts\), "
           r"configuration changes on line 97, hart 1\n"
           r"net: net0: pair 0 on hart 0: receive queue on line 98 \(count 0 at the start\), "
           r"transmit queue on line 99 \(count 0 at the start\)\n"}


QUEUE_LINE = re.compile(r"^  queue (\d+) \(pair \d+ (?:receive|transmit)\): line (\d+), "
                        r"hart (\d+): (\d+) interrupts, (\d+) completions$", re.M)


def irqs_tables(out):
    """Each `irqs` table's rows (its first part: counts), as {line: (hart, count, per-hart
    counts)}, in the order printed."""
    tables = []
    for block in re.findall(r" IRQ STATE    HART      COUNT[^\n]*\n((?:\s+\d+ \S+[^\n]*\n)+)", out):
        rows = {}
        for row in block.splitlines():
            f = row.split()
            if len(f) < 4 or not all(x.isdigit() for x in f[:1] + f[2:]):
                continue  # another writer's line inside the row: the row is not there
            rows[int(f[0])] = (int(f[2]), int(f[3]), [int(x) for x in f[4:]])
        tables.append(rows)
    return tables


def queues_exact(out):
    """`irqs`, `net`, `irqs` after the traffic: every queue's line routed to the hart that
    serves it, and taken as often as the driver's last instance handled it since its start
    (the count it printed then, plus its handled; the kernel's count the same in both
    tables); the completions of the queues on a line at least its interrupts. Problems, as a
    list."""
    tables, queues = irqs_tables(out), QUEUE_LINE.findall(out)
    bases = {int(line): int(n) for line, n in
             re.findall(r"line (\d+) \(count (\d+) at the start\)", out)}
    if len(tables) < 2 or not queues:
        return [f"no irqs tables ({len(tables)}) or no queue lines ({len(queues)}) to compare"]
    problems = []
    for index, line, hart, irqs, done in ((int(x) for x in q) for q in queues):
        before, after = tables[-2].get(line), tables[-1].get(line)
        if before is None or before != after:
            problems.append(f"queue {index}: line {line} not in irqs, or it moved in between "
                            f"({before} then {after})")
            continue
        on, count, per_hart = before
        base = bases.get(line, 0)
        if (on, count) != (hart, base + irqs) or per_hart[hart] < irqs:
            problems.append(f"queue {index}: line {line} on hart {on}, {count} interrupts "
                            f"({per_hart} a hart); net says hart {hart}, {irqs} handled "
                            f"since the line's count was {base}")
    on_line = {}
    for index, line, hart, irqs, done in ((int(x) for x in q) for q in queues):
        on_line.setdefault(line, [irqs, 0])[1] += done
    for line, (irqs, done) in on_line.items():  # a shared line: its queues' completions
        if done < irqs:
            problems.append(f"line {line}: {irqs} interrupts for {done} completions")
    if not any(irqs for irqs, done in on_line.values()):
        problems.append("no queue took an interrupt")
    return problems


COUNTS = "irqs\rnet\rirqs\rpoweroff\r"  # the counts queues_exact compares, then off
PCI_NET = "virtio-net-pci,netdev=n0,addr=2,mq=on,romfile="


def pci_net_cases(name, run, expect, bootargs=PCI_NET_RUN, ping=True, timeout=120):
    """A host client (run, given the host port) through the forward to the echo service over
    virtio-net-pci, once the lease and echo are up; then, if ping, the shell's ping 100; then
    the counts (queues_exact). One case a controller (NAME, NAME@aia), each with a client of
    its own; expect(variant) gives the variant's expectations."""
    made = []
    for variant in CONTROLLERS:
        port = free_port(socket.SOCK_DGRAM)
        client = HostClient(name, lambda port=port: run(port), [spliced(ECHO_READY)])
        steps = [(client.start, "")]
        steps += ([(client.done, "ping 10.0.2.2 100\r"), (r"% packet loss", COUNTS)] if ping
                  else [(client.done, COUNTS)])
        made.append(case(
            name if variant == CONTROLLERS[0] else f"{name}@{variant}",
            [r"pci: 00:02.0 1af4:1000 class 020000 ", r"pci: 00:02.0 bus mastering on",
             *expect(variant), r"powering off"],
            variant=variant, bootargs=bootargs, smp=2,
            qemu_args=("-netdev", f"user,id=n0,hostfwd=udp:127.0.0.1:{port}-:7",
                       "-device", PCI_NET),
            timeout=timeout, console_input=steps,
            check=lambda out, client=client: client.check(out) + queues_exact(out),
            forbid=(r"PANIC", r"FAIL", r"no reply from")))
    return made


NET_READY_PCI = r"net: net0: virtio-net 52:54:00:12:34:56, link up, 128 buffers a queue\n"
CASES += pci_net_cases(
    "ip-net-pci", lambda port: udp_echo(port, 1000),
    lambda v: [PCI_NET_LINE[v], NET_READY_PCI, PCI_NET_READY[v], spliced(LEASE),
               r"64 bytes from 10\.0\.2\.2: icmp_seq=100 ttl=\d+ time=\d+\.\d{3} ms",
               r"100 packets transmitted, 100 received, 0% packet loss"])

# net1 (net_dying) over virtio-net-pci faults once it has handed netpair_kill 300 frames, with
# its MSI-X vectors held (the AIA's machine: the configuration's and each queue's) or its INTx
# line bound; the two NICs are virtio-net-pci functions on one QEMU hub (slots 2 and 3, which
# instance claims which is the boot's order). pci masks every vector and frees its line
# before the function's DMA quarantine is released; init restarts net_dying, whose next
# instance gets the same lines again and counts from what they had; lib's client reaches it
# and the stream goes on to 1,000, every frame that arrives as sent. Then irqs, `net net1`,
# irqs: each of instance 1's lines exact (queues_exact: the count it found at its start + the
# interrupts it handled).
def netpair_kill_gone(out):
    """Both lines of netpair_kill's end: init's, and the kernel's own, which it writes to the
    UART itself, past the console server: typed before it, the shell's `irqs` table can have
    it land in the middle of a row."""
    return ("init: server netpair_kill finished" in out and
            "tacet: process netpair_kill ended" in out)


PCI_HUB = ("-netdev", "hubport,id=h0,hubid=0",
           "-device", "virtio-net-pci,netdev=h0,addr=2,romfile=",
           "-netdev", "hubport,id=h1,hubid=0",
           "-device", "virtio-net-pci,netdev=h1,addr=3,romfile=")
PCI_KILL_RUN = ("init.run=^%uart=console:ns16550a,pci:pci-host-ecam-generic+pci-mmio32+pci-intx,"
                "net=net0@1/110,net_dying=net1@1/110*1,netpair_kill@1")
PCI_KILL_FREED = {
    "aclint": r"pci: 00:0[23]\.0 released \(its driver ended\)",
    "aia": r"pci: 00:0[23]\.0 released \(its driver ended\), command 0x0402\n[\s\S]*"
           r"pci: 00:0[23]\.0 vector 0 masked, its line freed\n[\s\S]*"
           r"pci: 00:0[23]\.0 vector 1 masked, its line freed\n[\s\S]*"
           r"pci: 00:0[23]\.0 vector 2 masked, its line freed\n"}
PCI_KILL_AGAIN = {
    "aclint": r"net: net1: over virtio-pci, one queue pair, both queues on the INTx line 3[2-5] "
              r"\(count [1-9]\d* at the start\)\n",
    "aia": r"net: net1: pair 0 on hart 0: receive queue on line \d+ \(count [1-9]\d* at the "
           r"start\), transmit queue on line \d+ \(count \d+ at the start\)\n"}
CASES += [
    case("net-kill-pci",
         [r"net_dying: instance 0: 300 frames received; faulting", PCI_KILL_FREED,
          r"init: restarting net_dying \(restart 1\)",
          r"net: net1: instance 1: the device's Status was 0x[0-9a-f]+ at start", PCI_KILL_AGAIN,
          r"netpair: \d+ frames of 60 to 1514 bytes sent, \d+ received once each, every byte as "
          r"sent, \d+ lost, \d+ late, 0 wrong \(\d+ before an earlier one\): PASS",
          r"netpair: net1 ended mid-stream, 1 reconnect\(s\), now instance 1: PASS",
          r"netpair: all checks passed", r"powering off"],
         bootargs=PCI_KILL_RUN, smp=2, qemu_args=PCI_HUB, timeout=90,
         console_input=(netpair_kill_gone, f"irqs\rnet net1\r{COUNTS}"),
         check=queues_exact, variants=CONTROLLERS),
]

# The same death under ip (ip-net-pci-dies): net_dying (net0, the only NIC) faults after 300
# frames with its MSI-X vectors held or its INTx line bound, pci masks every vector and frees
# its line before the quarantine, init restarts it; ip must reach the next instance and the
# host's 1,000 datagrams all come back (each sent again until it is: the service is away for
# a moment). The end's wake-up can come while frames are still published: lib's netdev_poll
# asks whether net lives whenever the watch's own bit came (NETDEV_WATCH_BIT), not only on a
# wake-up that finds nothing new, else that wake-up is taken for the frames' and nothing wakes
# ip again (it failed about one run in two so, "datagram N: no echo after 60 retries").
PCI_NET_DIES = {
    "aclint": [r"pci: 00:02\.0 released \(its driver ended\)"],
    "aia": [r"pci: 00:02\.0 released \(its driver ended\), command 0x0402\n[\s\S]*"
            r"pci: 00:02\.0 vector 0 masked, its line freed\n[\s\S]*"
            r"pci: 00:02\.0 vector 1 masked, its line freed\n[\s\S]*"
            r"pci: 00:02\.0 vector 2 masked, its line freed\n"]}
PCI_NET_AGAIN = {
    "aclint": r"net: net0: over virtio-pci, one queue pair, both queues on the INTx line 3[2-5] "
              r"\(count [1-9]\d* at the start\)\n",
    "aia": r"net: net0: pair 0 on hart 0: receive queue on line \d+ \(count [1-9]\d* at the "
           r"start\), transmit queue on line \d+ \(count \d+ at the start\)\n"}
CASES += pci_net_cases(
    "ip-net-pci-dies", lambda port: udp_echo_through(port, 1000, 60),
    lambda v: [r"net_dying: instance 0: 300 frames received; faulting",
               *PCI_NET_DIES[v], r"init: restarting net_dying \(restart 1\)",
               r"net: net0: instance 1: the device's Status was 0x[0-9a-f]+ at start",
               PCI_NET_AGAIN[v]],
    bootargs=PCI_NET_RUN.replace("net=net0@1/110", "net_dying=net0@1/110*1"), ping=False)
