"""cases_isolation.py: the adversarial suite of the isolation issue: hostile servers that try to
harm another server or the kernel with nothing but what init gives any server, and the checks
that each target is unaffected."""

PCI_RUN = "init.run=^uart=console:ns16550a,pci:pci-host-ecam-generic+pci-mmio32+pci-intx"
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


CASES = [
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
    # it; init restarts it (^uart=console:ns16550a*3), chatter's blocked write gets EDEAD and
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
         bootargs="init.run=^uart=console:ns16550a*3,chatter@1,squatter@2",
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
]
