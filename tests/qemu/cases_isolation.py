"""cases_isolation.py: the adversarial suite of the isolation issue: hostile servers that try to
harm another server or the kernel with nothing but what init gives any server, and the checks
that each target is unaffected."""

PCI_RUN = "init.run=uart:ns16550a,pci:pci-host-ecam-generic+pci-mmio32+pci-intx"
LABELS = r"32768 kernel labels x2 refused with EINVAL: PASS"

CASES = [
    # Forged kernel messages: every label the kernel reserves (TACET_LABEL_NOTIFY, _FAULT, ...)
    # sent to init, the console and pci is refused; a reply with one too. None of the three
    # acts on a forgery: init does not power off ("every server ended"), pci keeps the claim
    # ("its driver ended"), the console still writes; the edu line still works.
    case("forge-kernel-labels",
         [rf"forger: init: {LABELS}", rf"forger: console: {LABELS}", rf"forger: pci: {LABELS}",
          r"forger: a reply with TACET_LABEL_NOTIFY is refused with EINVAL: PASS",
          r"forger: a reply with TACET_LABEL_FAULT is refused with EINVAL: PASS",
          r"forger: the caller still gets a plain reply: PASS",
          r"forger: console still writes\n",
          r"forger: the console still answers a write: PASS",
          r"forger: pci still holds the claim \(a second claim is EBUSY\): PASS",
          r"forger: the edu interrupt still arrives: PASS",
          r"forger: all checks passed",
          r"init: power off requested by forger"],
         bootargs=f"{PCI_RUN},forger", qemu_args=("-device", "edu"),
         forbid=(r"PANIC", r"FAIL", r"init: all \d+ servers done", r"released")),
]
