"""cases_netapps.py: the default boot's servers over ip's sockets, from host clients through
forwarded ports: the metrics server (servers/http, port 80) and the iperf 2 server
(servers/iperf, port 5001). /metrics is accepted by `promtool check metrics` and agrees with the
shell's `irqs` typed before and after it in the same run; /irqs is the same table; bad requests
get lib/http.c's statuses; connections that never send a whole request, or many at once, do not
stop a good one; Debian's iperf 2 client completes a short run against the server and reports
a rate, the server the same byte count.

The cases boot the default boot arguments (`make qemu`'s) on the devices the Makefile attaches,
the network card with forwards of their own (free host ports, as cases_ip.py takes them). Host
clients run in the runner's process (cases_ip.py's HostClient): each waits for printed lines,
never for a time; its sockets' timeouts only say that something did not come."""

import importlib.util
import os
import re
import shutil
import socket
import subprocess
import time


def sibling(name):
    """Another case file's helpers (loaded as cases.py loads it, with the names it gets)."""
    spec = importlib.util.spec_from_file_location(
        name, os.path.join(os.path.dirname(os.path.abspath(__file__)), name + ".py"))
    mod = importlib.util.module_from_spec(spec)
    mod.case, mod.spliced, mod.DEFAULT_LEASE = case, spliced, DEFAULT_LEASE
    mod.DEFAULT_DEVICES, mod.DEFAULT_NEEDS = DEFAULT_DEVICES, DEFAULT_NEEDS
    mod.default_boot_input, mod.CONTROLLERS = default_boot_input, CONTROLLERS
    spec.loader.exec_module(mod)
    return mod


ip = sibling("cases_ip")
metrics = sibling("cases_metrics")

HTTP_READY = "http: serving /irqs and /metrics on TCP port 80 (timing shown: trace authority held)"
IPERF_READY = "iperf: iperf 2 server on TCP port 5001"
CONNS_MAX = 7      # servers/http: the session's 8 sockets less the listener
TIMEOUT = 30       # a host socket's: what the guest must have done by then


def default_boot(forwards):
    """QEMU arguments: the default boot's devices, the network card forwarding each (proto,
    host port, guest port) from 127.0.0.1."""
    devices = list(DEFAULT_DEVICES)
    at = devices.index("-netdev")
    return tuple(devices[:at]) + ip.net_args(forwards)


def http_exchange(port, request):
    """request (bytes) to 127.0.0.1:port, the connection read to its end: (status, headers as
    a dict of lower-case names, body)."""
    with socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT) as s:
        s.settimeout(TIMEOUT)
        s.sendall(request)
        data = b"".join(iter(lambda: s.recv(65536), b""))
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    m = re.match(r"HTTP/1\.0 (\d{3}) ", lines[0])
    headers = dict((k.strip().lower(), v.strip()) for k, _, v in
                   (line.partition(":") for line in lines[1:]))
    return (int(m.group(1)) if m else None), headers, body


def http_get(port, path, method="GET"):
    return http_exchange(port, f"{method} {path} HTTP/1.0\r\nHost: tacet\r\n\r\n".encode())


def answered(command, nth=0):
    """A console_input pattern: the shell has printed its nth answer to command, to the next
    prompt."""
    def done(out):
        out = out.replace("\r\n", "\n")  # as the check reads it
        found = list(re.finditer(rf"(?:^|tacet> ){command}\n", out, re.M))
        return len(found) > nth and out.find("tacet> ", found[nth].end()) >= 0
    done.__name__ = f"{command} answered ({nth})"
    return done


def seen(pattern):
    """A console_input pattern: pattern was printed."""
    def printed(out):
        return re.search(pattern, out) is not None
    return printed


def both(*patterns):
    def all_of(out):
        return all(p(out) for p in patterns)
    return all_of


# --- /metrics and /irqs between two irqs ------------------------------------------------------

class Scrape:
    """GET /metrics, /irqs and HEAD /metrics once started; what came, for the check."""

    def __init__(self, port):
        self.port, self.got = port, {}

    def run(self):
        self.got["metrics"] = http_get(self.port, "/metrics")
        self.got["irqs"] = http_get(self.port, "/irqs")
        self.got["head"] = http_get(self.port, "/metrics", "HEAD")
        return []

    def check(self, out):
        problems = []
        for what in ("metrics", "irqs", "head"):
            status, headers, body = self.got.get(what, (None, {}, b""))
            if status != 200:
                return [f"{what}: status {status}, not 200"]
        status, headers, body = self.got["metrics"]
        if headers.get("content-type") != "text/plain; version=0.0.4":
            problems.append(f"/metrics: Content-Type {headers.get('content-type')}")
        if int(headers.get("content-length", -1)) != len(body):
            problems.append(f"/metrics: Content-Length {headers.get('content-length')}, "
                            f"{len(body)} bytes came")
        text = body.decode()
        problems += metrics.promtool_problems(text)
        first, second = metrics.answer(out, "irqs"), metrics.answer(out, "irqs", 1)
        if first is None or second is None:
            return problems + ["no irqs before and after the scrape"]
        before, after = metrics.irqs_counts(first), metrics.irqs_counts(second)
        got = metrics.samples(text)
        counts = metrics.by_irq(got, "tacet_irq_interrupts_total")
        if not counts or set(counts) != set(before) or set(before) != set(after):
            problems.append(f"lines: metrics {sorted(counts)}, irqs {sorted(before)} then "
                            f"{sorted(after)}")
        for irq, n in counts.items():
            if not before.get(irq, -1) <= n <= after.get(irq, -1):
                problems.append(f"line {irq}: irqs {before.get(irq)}, metrics {n}, irqs "
                                f"{after.get(irq)}")
        if got.get("tacet_irq_timing_visible") != [({}, 1.0)]:
            problems.append("tacet_irq_timing_visible is not 1: http has the trace authority")
        for irq in counts:
            for name in metrics.HISTOGRAMS:
                problems += metrics.histogram_problems(got, name, irq)[1]
        table = metrics.irqs_counts(self.got["irqs"][2].decode())
        if set(table) != set(before) or any(not before[i] <= table[i] <= after[i]
                                            for i in table):
            problems.append(f"/irqs: {table}, irqs {before} then {after}")
        if self.got["head"][2] or self.got["head"][1].get("content-length") in (None, "0"):
            problems.append(f"HEAD /metrics: a body of {len(self.got['head'][2])} bytes or no "
                            f"length ({self.got['head'][1]})")
        return problems


def metrics_case():
    port = ip.free_port(socket.SOCK_STREAM)
    scrape = Scrape(port)
    client = ip.HostClient("scrape", scrape.run)
    return case("http-metrics",
                [spliced(HTTP_READY), r"http: connection \d+ closed: answered 200",
                 r"init: power off requested by uart"],
                smp=2, qemu_args=default_boot((("tcp", port, 80),)), needs=DEFAULT_NEEDS,
                timeout=90,
                console_input=default_boot_input("irqs\r") + [
                    (both(answered("irqs"), client.start), ""),
                    (client.done, "irqs\r"),
                    (answered("irqs", 1), "poweroff\r")],
                check=lambda out: client.check(out) or scrape.check(out))


# --- bad requests, slow and many connections --------------------------------------------------

BAD = [  # (request, status lib/http.c answers)
    (b"GET /nowhere HTTP/1.0\r\n\r\n", 404),
    (b"POST /metrics HTTP/1.0\r\nContent-Length: 0\r\n\r\n", 405),
    (b"DELETE /irqs HTTP/1.1\r\n\r\n", 405),
    (b"GET /metrics HTTP/2.0\r\n\r\n", 505),
    (b"GET  /metrics HTTP/1.0\r\n\r\n", 400),
    (b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\r\n\r\n", 400),  # TLS's hello
    (b"GET /metrics HTTP/1.0\r\nX: a\0b\r\n\r\n", 400),
    (b"GET /" + b"a" * 300 + b" HTTP/1.0\r\n\r\n", 414),
    (b"GET /metrics HTTP/1.0\r\n" + b"X-Long: " + b"b" * 3000 + b"\r\n\r\n", 431),
]


class Hostile:
    """Bad requests, each answered with its status; then CONNS_MAX - 1 connections that never
    send a whole request (some nothing, some a request line only), each opened once the server
    has said it accepted the one before, held open while a good request is answered; each of
    them closed by the server (the oldest to make room, the others after their time); then
    2 * CONNS_MAX connections at once, each closed by the server or refused by ip (its socket
    quota), and a good request after them answered. The thread reads the console (out, which
    the case's pattern keeps) for the server's lines."""

    def __init__(self, port):
        self.port, self.out = port, ""

    def accepted(self):
        return len(re.findall(r"http: connection \d+ accepted", self.out))

    def run(self):
        problems = []
        for request, want in BAD:
            status, _, body = http_exchange(self.port, request)
            if status != want or not body.startswith(f"{want} ".encode()):
                problems.append(f"{request[:40]!r}: status {status} ({body[:40]!r}), not {want}")
        idle = []
        for i in range(CONNS_MAX - 1):
            seen = self.accepted()
            s = socket.create_connection(("127.0.0.1", self.port), timeout=TIMEOUT)
            if i % 2:
                s.sendall(b"GET /metrics HTTP/1.0\r\nHost: slow")
            idle.append(s)
            deadline = time.monotonic() + TIMEOUT
            while self.accepted() == seen:
                if time.monotonic() > deadline:
                    return problems + [f"idle connection {i}: never accepted"]
                time.sleep(0.01)
        status, _, body = http_get(self.port, "/irqs")
        if status != 200 or b"IRQ" not in body:
            problems.append(f"/irqs beside {len(idle)} idle connections: status {status}")
        problems += self.all_closed(idle, "idle")
        many = [socket.create_connection(("127.0.0.1", self.port), timeout=TIMEOUT)
                for _ in range(2 * CONNS_MAX)]
        problems += self.all_closed(many, "many")
        status, _, body = http_get(self.port, "/metrics")
        if status != 200 or b"tacet_irq_interrupts_total" not in body:
            problems.append(f"/metrics after {len(many)} connections at once: status {status}")
        return problems

    @staticmethod
    def all_closed(socks, what):
        """Each socket ends (the server's close, or ip's reset) without a response."""
        problems = []
        for s in socks:
            try:
                s.settimeout(TIMEOUT)
                data = b"".join(iter(lambda: s.recv(4096), b""))
            except ConnectionResetError:
                data = b""
            except socket.timeout:
                data = b"(not closed)"
            s.close()
            if data:
                problems.append(f"{what} connection: {data[:40]!r} came, not the close")
        return problems


def hostile_case():
    port = ip.free_port(socket.SOCK_STREAM)
    hostile = Hostile(port)
    client = ip.HostClient("hostile", hostile.run, [spliced(HTTP_READY)])

    def done(out):
        hostile.out = out
        return client.done(out)
    return case("http-hostile",
                [spliced(HTTP_READY), r"http: connection \d+ closed: answered 404",
                 r"http: connection \d+ closed: answered 431",
                 r"http: connection \d+ closed: the oldest, to keep room for a new connection",
                 r"(?s)(http: connection \d+ closed: no whole request in time.*){3}",
                 r"init: power off requested by uart"],
                smp=2, qemu_args=default_boot((("tcp", port, 80),)), needs=DEFAULT_NEEDS,
                timeout=120,
                console_input=[(client.start, ""), (done, "poweroff\r")],
                check=lambda out: with_losses(client.check(out), out))


def with_losses(problems, out):
    """problems, with ip's reports of frames it lost (a refusal's lost RST leaves its host
    connection open) when there are problems to explain."""
    return problems and problems + re.findall(r"ip: lost so far: [^\n]*", out)[-1:]


# --- iperf --------------------------------------------------------------------------------------

class Iperf:
    """Debian's iperf 2 client, `iperf -c 127.0.0.1 -p PORT -t 2 -f k`: it ends with status 0
    and reports a rate; the server's line for the connection counts the bytes the client says
    it sent."""

    def __init__(self, port):
        self.port, self.said = port, ""

    def run(self):
        tool = shutil.which("iperf")
        if not tool:
            return ["iperf not found: install Debian's iperf package (make deps does)"]
        proc = subprocess.run([tool, "-c", "127.0.0.1", "-p", str(self.port), "-t", "2",
                               "-f", "k"], capture_output=True, text=True, timeout=120)
        self.said = proc.stdout + proc.stderr
        if proc.returncode:
            return [f"iperf exited with {proc.returncode}: {self.said.strip()}"]
        return []

    def check(self, out):
        m = re.search(r"sec\s+(\d+) KBytes\s+(\d+) Kbits/sec", self.said)
        if not m:
            return [f"iperf reported no rate: {self.said.strip()}"]
        server = re.search(r"iperf: connection \d+: (\d+) bytes in \d+\.\d{3} s, "
                           r"(\d+)\.\d{3} Mbit/s", out)
        if not server:
            return ["the server printed no figures"]
        sent, got = int(m.group(1)) * 1024, int(server.group(1))
        if not sent - 1024 <= got <= sent + 1024 or got < 1 << 20:
            return [f"the client sent {sent} bytes (its KBytes), the server counted {got}"]
        return []


def iperf_case():
    port = ip.free_port(socket.SOCK_STREAM)
    run = Iperf(port)
    client = ip.HostClient("iperf", run.run, [spliced(IPERF_READY)])
    return case("iperf-short",
                [spliced(IPERF_READY), r"iperf: connection \d+ accepted",
                 r"iperf: connection \d+: \d+ bytes in \d+\.\d{3} s, \d+\.\d{3} Mbit/s\n",
                 r"init: power off requested by uart"],
                smp=2, qemu_args=default_boot((("tcp", port, 5001),)), needs=DEFAULT_NEEDS,
                timeout=120,
                console_input=[(client.start, ""),
                               (both(client.done, seen(r"iperf: connection \d+: ")),
                                "poweroff\r")],
                check=lambda out: client.check(out) or run.check(out))


CASES = [metrics_case(), hostile_case(), iperf_case()]
