"""cases_teardown.py: the end of a big process (servers/tests/threadhog.c): a child process of
100,001 blocked threads is listed through TACET_INFO_THREAD and ended by deleting its last
capability; both must take linear time (well under a second of guest time; the quadratic
kernel took half an hour for 128,836 threads), and every page and kernel object must come back.
threadhog's own end must end the two children it leaves (one with threads, one without).
Under -icount guest time is the retired-instruction count, so the figures do not depend on the
host's load. The threads (about 1 KiB each in the kernel) need more than the default RAM.
Then the teardown-chain-* cases: chains thousands of links deep that the kernel must end
without recursion (below), and preempt-teardown: a 100,000-deep chain whose end, one system call,
lets other harts' and its own hart's interrupts in at its preemption points."""
import re


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

# Chains thousands of links deep (servers/tests/chain_*.c), built by a hostile server and ended:
# a kernel that followed any of them by recursion would overflow its 16 KiB stack and panic
# (each of these did before teardown used worklists). Each checks that the chain was whole,
# that everything in it ended and that every page and kernel object came back; init's leak
# check confirms. Functional, so without -icount; the processes need more than the default RAM.
CHAIN_MEMORY = "init.budget=20000"


def process_ends_accounted(ends):
    """A check: the kernel's line for a process's end is rate-limited (a flood of ends must not
    flood the console); every end is either logged or counted in a `not logged` line (the
    count told at the next line let through, or before the power-off), and a flood is cut."""
    def check(out):
        logged = len(re.findall(r"^tacet: process \S+ ended \(status -?\d+\)", out, re.M))
        untold = [int(n) for n in
                  re.findall(r"^tacet: (\d+) process end lines not logged", out, re.M)]
        problems = []
        if logged + sum(untold) != ends:
            problems.append(f"{logged} process ends logged and {sum(untold)} counted as not "
                            f"logged: {logged + sum(untold)}, expected {ends}")
        if not untold:
            problems.append("no `not logged` line: the flood of process ends was not cut")
        return problems
    return check


CASES += [
    case("teardown-spread-process",
         [r"spread: without a thread: 1088 mappings and 100 capabilities, \d+ pages taken: PASS",
          r"spread: without a thread: deleted its only capability: PASS",
          r"spread: memory back: .*: PASS",
          r"spread: without a thread: longest BKL hold on hart 1 so far: \d+ instructions "
          r"\(call \d+\), at most 5000: PASS",
          r"spread: with a thread: 1088 mappings and 100 capabilities, \d+ pages taken: PASS",
          r"spread: with a thread: deleted its only capability: PASS",
          r"(?s)tacet: process chain ended \(status -12\).*spread: memory back: .*: PASS",
          r"spread: with a thread: longest BKL hold on hart 1 so far: \d+ instructions "
          r"\(call \d+\), at most 5000: PASS",
          r"spread: all checks passed",
          r"init: server spread finished with status 0",
          r"init: leak check: .*: PASS", r"init: all 1 servers done; powering off"],
         smp=2, bootargs="init.run=spread@1 init.budget=4000", icount=True, timeout=60),
    # A process ends while its FRAME_NEW waits, half-zeroed, for a more urgent thread of its
    # hart (servers/tests/framehold.c): the frame kept in the thread goes with it.
    case("frame-held-end",
         [r"framehold: woken \d+ ns late; the maker started 1 frames, made 0: inside one",
          r"tacet: process framehold ended \(status 0\)",
          r"init: server framehold finished with status 0",
          r"init: leak check: .*: PASS", r"init: all 1 servers done; powering off"],
         smp=2, bootargs="init.run=framehold@1/200", icount=True, timeout=60),
    case("teardown-chain-derived-frames",
         [r"chain_frame: derived 10000 frames, each from the one before: kernel objects \d+ -> "
          r"\d+ \(the root and the last\): PASS",
          r"chain_frame: the last one is the root's page \(0x[0-9a-f]+, 1 page\) and reads "
          r"0x7ace7c4a1e5: PASS",
          r"chain_frame: root capability deleted, the last one still reads 0x7ace7c4a1e5: PASS",
          r"chain_frame: deleted the last derived frame: PASS",
          r"chain_frame: memory back: .*: PASS", r"chain_frame: all checks passed",
          r"init: server chain_frame finished with status 0",
          r"init: leak check: .*: PASS", r"init: all 1 servers done; powering off"],
         smp=2, bootargs="init.run=chain_frame@1:goldfish-rtc", timeout=60),
    case("teardown-chain-caps",
         [r"chain_cap: 3000 processes without threads, each holding the only capability to the "
          r"next: \d+ kernel objects more, 0 threads, 0 of them waiting: PASS",
          r"chain_cap: deleted the capability to the first: the kernel lives, all freed, threads "
          r"of the chain left: 0: PASS",
          r"chain_cap: 3000 processes with a thread each, each holding the only capability to "
          r"the next: \d+ kernel objects more, 3000 threads, \d+ of them waiting: PASS",
          r"chain_cap: deleted the capability to the first: the kernel lives, the last one "
          r"ended, threads of the chain left: 0: PASS",
          r"(?s)(chain_cap: memory back: .*: PASS.*){2}", r"chain_cap: all checks passed",
          r"init: server chain_cap finished with status 0",
          r"init: leak check: .*: PASS", r"init: all 1 servers done; powering off"],
         smp=2, mem="256M", bootargs="init.run=chain_cap@1 " + CHAIN_MEMORY, timeout=90),
    case("teardown-chain-processes",
         [r"chain_proc: 3000 processes, each created by the one before: 3000 threads, \d+ of "
          r"them waiting, \d+ about to: PASS",
          r"chain_proc: deleted the capability to the first: the kernel lives, the first one "
          r"ended, threads of the chain left: 0: PASS",
          r"chain_proc: memory back: .*: PASS", r"chain_proc: all checks passed",
          r"init: server chain_proc finished with status 0",
          r"init: leak check: .*: PASS", r"init: all 1 servers done; powering off"],
         smp=2, mem="256M", bootargs="init.run=chain_proc@1 " + CHAIN_MEMORY, timeout=90,
         check=process_ends_accounted(3000 + 1)),  # the chain and chain_proc
    case("teardown-chain-faults",
         [r"chain_fault: the first process's fault: cause 13, address 0: PASS",
          r"chain_fault: 3000 threads faulted, each supervised by the next: 3000 threads, 3000 "
          r"of them waiting for their supervisor: PASS",
          r"chain_fault: told the kernel to end the first: the kernel lives, the first process "
          r"ended, threads of the chain left: 0: PASS",
          r"chain_fault: memory back: .*: PASS", r"chain_fault: all checks passed",
          r"init: server chain_fault finished with status 0",
          r"init: leak check: .*: PASS", r"init: all 1 servers done; powering off"],
         smp=2, mem="256M", bootargs="init.run=chain_fault@1 " + CHAIN_MEMORY, timeout=90),
]

# The preemption test (servers/tests/preempt.c, in the manner of sel4test's PREEMPT_REVOKE): a chain
# of 100,000 processes, each holding the only capability to the next, ended by one system call on
# hart 1, three times in one boot: unpreempted (the reference); while a driver on hart 0 takes the
# goldfish RTC's alarm every millisecond (at least 10 of its interrupts served during the call: each
# needed the BKL the call held, so the call let it in at its preemption points; about 500 in a 0.55
# s call on an idle host, 0 to 2 with bkl_yield disabled); and while a driver on hart 1 itself waits
# for one alarm (its top half stamped inside the call with at least a quarter of it to go, and the
# driver, which outranks the ender, running inside the call at once: the call is held back for it at
# a point; without preemption points the stamp is the call's end, without that hold the driver runs
# after it). Each run gives back every page, object and byte of the account, and the preempted runs
# cost and gave back exactly what the unpreempted one did. Functional, so without -icount: the
# alarms are the host's time, the checks are ratios and counts that hold on a loaded host. The chain
# takes two pages and a 256-byte object a link (206,250 pages): the budget and -m 2G. About 5 s on
# an idle host, 10 to 25 s on a loaded one.
CASES += [
    case("preempt-teardown",
         [r"preempt: unpreempted: built 100000 processes, each holding the only capability to "
          r"the next: 100001 kernel objects more \(with the first's watch\), \d+ pages fewer "
          r"free, account \d+ bytes "
          r"more: PASS",
          r"preempt: unpreempted: ended the chain with one call of \d+ us on hart 1 .*: PASS",
          r"preempt: unpreempted: memory back: .*: PASS",
          r"preempt: across harts: built 100000 processes.*: PASS",
          r"preempt: across harts: ended the chain with one call of \d+ us on hart 1 .*: PASS",
          r"preempt: across harts: memory back: .*: PASS",
          r"preempt: across harts: the driver on hart 0 served \d+ interrupts while the call "
          r"on hart 1 ran .*, at least 10: PASS",
          r"preempt: on hart 1: built 100000 processes.*: PASS",
          r"preempt: on hart 1: ended the chain with one call of \d+ us on hart 1 .*: PASS",
          r"preempt: on hart 1: memory back: .*: PASS",
          r"preempt: on hart 1: the interrupt was taken inside the call, at a preemption point "
          r"with at least a quarter of the call to go, its driver run inside the call at once: "
          r"PASS",
          r"preempt: the preempted ends cost and gave back what the unpreempted one did: PASS",
          r"preempt: all checks passed",
          r"init: server preempt finished with status 0",
          r"init: leak check: .*: PASS", r"init: all 1 servers done; powering off"],
         smp=2, mem="2G", bootargs="init.run=preempt@1/200:goldfish-rtc init.budget=210000",
         timeout=180),
]
