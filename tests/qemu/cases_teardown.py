"""cases_teardown.py: the end of a big process (servers/tests/threadhog.c): a child process of
100,001 blocked threads is listed through TACET_INFO_THREAD and ended by deleting its last
capability; both must take linear time (well under a second of guest time; the quadratic
kernel took half an hour for 128,836 threads), and every page and kernel object must come back.
threadhog's own end must end the two children it leaves (one with threads, one without).
Under -icount guest time is the retired-instruction count, so the figures do not depend on the
host's load. The threads (about 1 KiB each in the kernel) need more than the default RAM."""

CASES = [
    case("teardown-100k-threads",
         [r"threadhog: made 100001 threads in \d+ us",
          r"threadhog: all of them ran into their wait in \d+ us",
          r"threadhog: listed \d+ threads \(100001 of hogs, 100000 of them waiting\) in \d+ us "
          r"of guest time: PASS",
          r"tacet: process hogs ended \(status -12\)",
          r"threadhog: ended a process of 100001 threads in \d+ us of guest time: PASS",
          r"threadhog: threads of hogs left: 0: PASS",
          r"threadhog: memory back: .*: PASS",
          r"threadhog: leaving 2 children to end with it: orphan \(1000 threads\) and empty: "
          r"PASS",
          r"threadhog: all checks passed",
          r"(?s)tacet: process threadhog ended \(status 0\)\n.*"
          r"tacet: process orphan ended \(status -12\)\n.*"
          r"tacet: process empty ended \(status -12\)",
          r"init: server threadhog finished with status 0",
          r"init: leak check: .*: PASS", r"init: all 1 servers done; powering off"],
         smp=2, bootargs="init.run=threadhog init.budget=40000", icount=True, mem="256M", timeout=120),
]
