"""cases_ipc.py: user-space tests of IPC, scheduling and faults, each a set of servers from
servers/tests/ started by init: the IPC client/server pair on one hart and across two, priority
preemption across harts, faults reported by init, and init's name service kept below a driver
(a lookup storm).
"""

IPC_CHECKS = [
    r"ipc_client: call/reply x1000: PASS",
    r"ipc_client: badge 0 \(unbadged\): PASS",
    r"ipc_client: badge 7: PASS",
    r"ipc_client: badge 9: PASS",
    r"ipc_client: grant: notification sent with TAKE_CAP: PASS",
    r"ipc_client: grant: server signalled through the transferred cap: PASS",
    r"ipc_client: grant: sender keeps its capability: PASS",
    r"ipc_client: no grant: call carrying a cap -> EPERM: PASS",
    r"ipc_client: no grant: refused call not seen by the server: PASS",
    r"ipc_client: no grant: plain call still works: PASS",
    r"ipc_server: notification bits 0x30\n",
    r"ipc_client: notification wakes the server: PASS",
    r"ipc_client: bad args: call slot 0 -> EBADSLOT: PASS",
    r"ipc_client: bad args: call slot 128 -> EBADSLOT: PASS",
    r"ipc_client: bad args: call slot 1000 -> EBADSLOT: PASS",
    r"ipc_client: bad args: call empty slot 127 -> EEMPTY: PASS",
    r"ipc_client: bad args: call empty slot 100 -> EEMPTY: PASS",
    r"ipc_client: bad args: call on a notification -> ETYPE: PASS",
    r"ipc_client: bad args: debug_write unmapped -> EFAULT: PASS",
    r"ipc_client: bad args: debug_write kernel address -> EFAULT: PASS",
    r"ipc_client: bad args: debug_write 1 MiB -> ERANGE: PASS",
    r"ipc_client: bad args: map unaligned -> EALIGN: PASS",
    r"ipc_client: bad args: map WRITE\|EXEC -> EINVAL: PASS",
    r"ipc_client: bad args: then a good map works: PASS",
    r"ipc_client: bad args: syscall 999 -> ENOSYS: PASS",
    r"ipc_client: bad args: tag with 5 words -> EINVAL: PASS",
    r"ipc_client: bad args: server saw no 5-word message: PASS",
    r"ipc_client: bad args: info with a short buffer -> ERANGE: PASS",
    r"ipc_client: bad args: info with a full buffer works: PASS",
    r"ipc_client: unknown label -> EINVAL: PASS",
    r"ipc_client: quit without the magic -> EINVAL: PASS",
    r"ipc_client: quit: PASS",
    r"ipc_client: all checks passed",
    r"init: server ipc_server finished with status 0",
    r"init: server ipc_client finished with status 0",
    r"init: all 2 servers done; powering off", r"init: leak check: .*: PASS",
]

CASES = [
    case("ipc-same-hart", IPC_CHECKS, bootargs="init.run=ipc_server=ipc+ipc.ntfn@1,ipc_client@1"),
    # Each round trip here wakes the other hart's QEMU thread twice: on a busy host that can
    # take milliseconds, so the 1000 echoes alone may take seconds.
    case("ipc-cross-hart", IPC_CHECKS, bootargs="init.run=ipc_server=ipc+ipc.ntfn@1,ipc_client@2",
         timeout=60),
    # The same on the smallest and the largest machine: one hart (server, client and init
    # share it), and eight (the pair on harts 3 and 7).
    case("ipc-smp1", IPC_CHECKS, smp=1, bootargs="init.run=ipc_server=ipc+ipc.ntfn@0,ipc_client@0"),
    case("ipc-smp8", IPC_CHECKS, smp=8, bootargs="init.run=ipc_server=ipc+ipc.ntfn@7,ipc_client@3",
         timeout=60),
    # prio_high (150) must run within 1 ms of guest time of prio_signal's signal from hart 2,
    # while prio_low (100) spins on hart 1 for 200 ms: well before prio_low is done.
    case("priority-preemption",
         [r"(?s)prio_high: woken after \d+ ticks: PASS.*prio_low: spin done",
          r"prio_high: prio_low preempted: PASS",
          r"prio_signal: signalled at \d+",
          r"init: all 3 servers done; powering off"],
         bootargs="init.run=prio_high=prio@1/150,prio_low@1/100,prio_signal=prio.done@2",
         icount=True, timeout=60),
    # A thread preempted by a more urgent one keeps its place among its equals only for the
    # rest of its slice: slicefair's victim, at a spinner's priority under a busy thread that
    # works 6 ms (more than a slice) and sleeps 1 ms, gets the hart within 3 of the busy
    # thread's rounds each time it asks (2 at most, seen). A preempted thread put back first in
    # line in whatever slice it ran (the busy thread's, renewed) waited up to 22 rounds.
    case("slice-after-preemption",
         [r"slicefair: started: a spinner and the victim at 100, a busy thread at 101 on hart 1",
          *(rf"slicefair: round {r}: the victim ran after \d+ of the busy thread's rounds"
            for r in range(10)),
          r"slicefair: 10 rounds, the longest wait [0-3] busy rounds \(at most 3\), the "
          r"spinner ran too \(yes\): PASS",
          r"init: server slicefair finished with status 0"],
         bootargs="init.run=slicefair@1/101", smp=2, timeout=60),
    # Two servers fault (a load from 0, an illegal instruction), one finishes: init reports
    # both faults, ends the two, and powers off with status 1 since servers failed.
    case("fault-reported",
         [r"init: server faulter faulted: cause 13 at pc 0x[0-9a-f]+, address 0x0 "
          r"\(thread \d+\); ending it",
          r"(?s)faulter_ill: executing \.word 0 at (0x[0-9a-f]+)\n.*"
          r"init: server faulter_ill faulted: cause 2 at pc \1, address 0x[0-9a-f]+ "
          r"\(thread \d+\); ending it",
          r"init: server hello finished with status 0",
          r"init: all 3 servers done \(some failed\); powering off"],
         bootargs="init.run=faulter@1,faulter_ill@3,hello@2", status=1),
    # One thread faults while 200 others of its process wait, or main returns while they do:
    # the whole process ends either way (TACET_FAULT_END; exit() is TACET_SYS_PROCESS_EXIT),
    # every page and object back. A kernel that ended only the thread
    # would leave the process living on with its 200 threads: init would never see it end, and
    # both cases would time out.
    case("fault-ends-process",
         [r"faultmany: 200 threads wait; faulting now",
          r"init: server faultmany faulted: cause 15 at pc 0x[0-9a-f]+, address 0x8 "
          r"\(thread \d+\); ending it",
          r"tacet: process faultmany ended \(status -7\)",
          r"returnmany: 200 threads wait; main returns",
          r"tacet: process returnmany ended \(status 0\)",
          r"init: server returnmany finished with status 0",
          r"init: leak check: .*: PASS",
          r"init: all 2 servers done \(some failed\); powering off"],
         bootargs="init.run=faultmany@1,returnmany@2", status=1),
    # A page unmapped while another hart's thread of the same process reads it: the TLB
    # shootdown makes that thread fault at once; init reports it and ends the process (every
    # thread of it).
    case("tlb-shootdown",
         [r"tlbtest: the reader reads the page on hart 2; unmapping it",
          r"tacet: thread \d+ of tlbtest faulted: scause 0xd pc 0x[0-9a-f]+ address 0x2100000000",
          r"init: server tlbtest faulted: cause 13 at pc 0x[0-9a-f]+, address 0x2100000000",
          r"tacet: process tlbtest ended \(status -7\)", r"init: leak check: .*: PASS"],
         bootargs="init.run=tlbtest@1", status=1),
    # Shared servers do not lend priority: a priority-110 driver of the goldfish
    # RTC on init's hart (hart 0) while a storm thread on each other hart, at priority 10,
    # looks a name up in a tight loop. init serves requests below the driver, so while the
    # driver holds hart 0 no lookup is answered (a count, not a time: strict priorities make it
    # 0 on any host), and no thread of init runs at or above 110 during the storm; the storm's
    # lookups are all answered. The interrupt latencies it prints are figures, not checks.
    case("init-lookup-storm",
         [r"init: .*; requests served at priority 90\n",
          r"lookupstorm: driver at priority 110 on hart 0",
          r"lookupstorm: interrupt latency without the storm: median \d+ us",
          r"lookupstorm: interrupt latency during the storm: median \d+ us",
          r"lookupstorm: the storm's lookups were answered: PASS",
          r"lookupstorm: the storm waited on init while the driver held hart 0: PASS",
          r"lookupstorm: init answered no lookup ahead of the driver: PASS",
          r"lookupstorm: no thread of init ran at or above the driver's priority during the "
          r"storm: PASS",
          r"lookupstorm: all checks passed",
          r"init: server lookupstorm finished with status 0", r"init: leak check: .*: PASS"],
         bootargs="init.run=lookupstorm@0/110:goldfish-rtc", timeout=90),
]
