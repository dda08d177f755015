"""cases_faults.py: the fault injector (the faults kernel's TACET_SYS_INJECT, kernel/inject) and
init's liveness thread (`~MS`, servers/init/liveness.c). injectbad (servers/tests/injectbad.c)
throws bad calls at the injector, each refused with its code, then two faults at the entropy
driver: its stack pointer flipped (it faults at the next read; init restarts it) and an endless
loop at its pc (it stops answering; init's liveness thread ends it after 200 ms). The read
after each is answered by the next instance. On the shipped kernel the call is ENOSYS."""

RNG = ("-device", "virtio-rng-device")
INJECTBAD_RUN = "init.run=^%uart=console:ns16550a,rng:virtio-rng*3~200,^%injectbad@1"

CASES = [
    case("inject-bad-calls",
         [r"injectbad: a first read of rng: PASS",
          r"injectbad: without the trace authority \(slot 0\) -> .*: PASS",
          r"injectbad: into its own thread \(no driver\) -> .*: PASS",
          r"injectbad: into init's thread \(no driver\) -> .*: PASS",
          r"injectbad: into no thread -> .*: PASS",
          r"injectbad: a hang with a value -> .*: PASS",
          r"injectbad: rng's sp, bit 40, flipped: PASS",
          r"init: server rng faulted: cause \d+",
          r"injectbad: a read after rng's sp flipped: answered \(by its next instance\): PASS",
          r"injectbad: the flipped thread has ended: refused: PASS",
          r"injectbad: an endless loop at rng's pc: PASS",
          r"init: server rng has not answered for 200 ms; ending it",
          r"injectbad: a read after rng's hang: answered \(by its next instance\): PASS",
          r"injectbad: 18 checks, 0 failed",
          r"init: power off requested by injectbad"],
         smp=2, bootargs=INJECTBAD_RUN, qemu_args=RNG, kernel="faults", timeout=60),
    # the same server on the shipped kernel: no injector there
    case("inject-none-in-shipped-kernel",
         [r"injectbad: no injector in this kernel \(.*\): PASS",
          r"init: power off requested by injectbad"],
         smp=2, bootargs=INJECTBAD_RUN, qemu_args=RNG, timeout=30),
]
