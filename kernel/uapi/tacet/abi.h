/* abi.h: Tacet's system call ABI, shared by the kernel and lib/ (user space includes it as
 * <tacet/abi.h>). Changing a value here changes the ABI: kernel and servers are built together.
 *
 * Calling convention (RISC-V): `ecall` with the call number in a7 and arguments in a0..a6.
 * On return a0 holds the result: >= 0 on success, a negative TACET_E* code on failure; calls
 * that return more put it in a1..a6 (listed per call). Other registers are preserved.
 *
 * IPC messages travel in registers only: a tag word (label, word count, capability transfer)
 * and up to TACET_MSG_WORDS data words.
 */
#ifndef TACET_ABI_H
#define TACET_ABI_H

#define TACET_MSG_WORDS 4
/* The page: what FRAME_NEW, MAP and UNMAP count in, and what a mapping's address is aligned to. */
#define TACET_PAGE_SIZE 4096ul
#define TACET_FRAME_MAX_PAGES 256 /* the largest TACET_SYS_FRAME_NEW (1 MiB) */

/* Call numbers. Arguments are named in the order a0, a1, ...; "slot" is a capability slot. */
/* A notification's bits, and so every badge a notification is signalled with, leave bit 63
 * clear: a wait returns them in a0, where a negative value is an error. */
#define TACET_NTFN_BIT_RESERVED (1ul << 63)

enum tacet_sys {
	TACET_SYS_NULL = 0,          /* () -> 0: the null syscall (benchmarks) */
	TACET_SYS_DEBUG_WRITE = 1,   /* (buf, len) -> len: kernel console, for early output; len 0:
				      * returns once all logged before is written out */
	TACET_SYS_EXIT = 2,          /* (status): end this thread; the last one ends its process */
	TACET_SYS_YIELD = 3,         /* () -> 0 */
	TACET_SYS_CALL = 4,          /* (ep, tag, w0..w3, reply_slot) -> 0; a1 = tag, a2..a5 =
				      * reply words; a capability in the reply lands in reply_slot
				      * (0: none is taken) */
	TACET_SYS_RECV = 5,          /* (ep, recv_slot) -> 0; a1 = tag, a2..a5 = words, a6 = badge */
	TACET_SYS_REPLY = 6,         /* (tag, w0..w3) -> 0 */
	TACET_SYS_REPLY_RECV = 7,    /* (ep, tag, w0..w3, recv_slot) -> as RECV */
	TACET_SYS_SIGNAL = 8,        /* (ntfn, bits) -> 0; bit 63 is reserved (TACET_EINVAL) */
	TACET_SYS_WAIT = 9,          /* (ntfn) -> bits (blocks until some are set; clears them) */
	TACET_SYS_POLL = 10,         /* (ntfn) -> bits (never blocks; clears them) */
	TACET_SYS_CAP_COPY = 11,     /* (src, dst, rights, badge) -> 0: copy with rights & mask */
	TACET_SYS_CAP_DELETE = 12,   /* (slot) -> 0 */
	TACET_SYS_CAP_INFO = 13,     /* (slot) -> type; a1 = rights, a2 = badge (empty: EEMPTY);
				      * a frame's: a3 = physical address, a4 = pages,
				      * a5 = TACET_FRAME_DEVICE if it is no RAM of
				      * FRAME_NEW's (device MMIO, boot memory: never DMA);
				      * a process's: a3, a4 = bytes of kernel memory its account
				      * holds, and may hold; an interrupt line's: a3 = its
				      * number (TACET_INFO_IRQ's) */
	TACET_SYS_CAP_GIVE = 14,     /* (process, src, dst, rights) -> 0: copy into another cspace */
	TACET_SYS_ENDPOINT_NEW = 15, /* (dst) -> 0 */
	TACET_SYS_NTFN_NEW = 16,     /* (dst) -> 0 */
	TACET_SYS_FRAME_NEW = 17,    /* (dst, pages, flags) -> 0: zeroed RAM, physically
				      * contiguous; 1..TACET_FRAME_MAX_PAGES pages (else ERANGE),
				      * ENOMEM when the budget or the machine has no such run;
				      * flags: 0, or TACET_FRAME_DMA (else EINVAL) */
	TACET_SYS_MAP = 18,          /* (process, frame, vaddr, rights) -> 0 */
	TACET_SYS_UNMAP = 19,        /* (process, vaddr, pages) -> 0 */
	TACET_SYS_PROCESS_NEW = 20,  /* (dst, fault_ep, name, budget, same_as) -> 0: empty address
				      * space and cspace; its kernel memory from an account of budget
				      * pages reserved from the caller's (0: the caller's own
				      * account), or, with same_as a process (WRITE, ended or not)
				      * and budget 0, from that process's account: a restarted
				      * server's (what its dead instances still hold stays charged) */
	TACET_SYS_THREAD_NEW = 21,   /* (process, dst, pc, sp, arg, sched) -> 0: starts it */
	TACET_SYS_THREAD_SET = 22,   /* (thread, sched) -> 0: priority and affinity */
	TACET_SYS_INFO = 23,         /* (kind, index, buf, len, trace) -> bytes written (ps,
				      * mem); trace: a slot holding a TACET_CAP_TRACE, or 0
				      * (enum tacet_info says what it opens) */
	TACET_SYS_CYCLES = 24,       /* () -> the cycle counter (benchmarks) */
	TACET_SYS_IRQ_BIND = 25,     /* (irq, ntfn, badge, flags) -> 0: the line signals badge;
				      * a line nobody had bound is routed to the caller's hart */
	TACET_SYS_IRQ_ACK = 26,      /* (irq, handled) -> 0: done (oneshot: unmasked once every
				      * binder of the line has acknowledged) */
	TACET_SYS_NTFN_BIND = 27,    /* (ntfn) -> 0: RECV also returns when ntfn is signalled */
	TACET_SYS_PROCESS_WATCH = 28, /* (process, ntfn, badge) -> 0: signal badge when it ends
				       * (up to 4 notifications; then EBUSY); a notification
				       * watches a process once (a new badge replaces the last),
				       * badge 0 ends its watch; the watch ends with the
				       * notification too; needs no right on the process */
	TACET_SYS_IRQ_UNBIND = 29,   /* (irq) -> 0: the line is masked and free to bind again */
	TACET_SYS_IRQ_SET_AFFINITY = 30, /* (irq, hart) -> 0: the line interrupts that hart only;
				      * a message-signalled line's a1 = the address its device
				      * must now write (its data does not change) */
	TACET_SYS_IRQ_ENABLE = 31,   /* (irq) -> 0: re-enable a line storm detection disabled */
	TACET_SYS_TIMER_SET = 32,    /* (ntfn, badge, deadline) -> 0: signal badge at that time
				      * (timebase ticks, as rdtime reads; 0 cancels); one per ntfn */
	TACET_SYS_FRAME_DERIVE = 33, /* (frame, dst, first_page, pages) -> 0: a frame capability
				      * for part of a frame (e.g. one device of a PCI window) */
	TACET_SYS_SELF = 34,         /* () -> the calling thread's id; a1 = its hart, a2 = its
				      * priority */
	TACET_SYS_IRQ_ACK_WAIT = 35, /* (irq, handled, ntfn) -> bits: IRQ_ACK, then WAIT on ntfn
				      * in one entry; a1 = the trap-entry cycle count of the
				      * interrupt that woke it (0: woken otherwise) */
	TACET_SYS_RESUME = 36,       /* the kernel's own: a call whose end a more urgent thread
				      * interrupted goes on (its thread makes it again, unknowing;
				      * anyone else gets ENOSYS) */
	TACET_SYS_PROCESS_EXIT = 37, /* (status): end the caller's process, every thread of it,
				      * each with status (exit() does it: a process whose main
				      * returned does not live on in its other threads) */
	TACET_SYS_FRAME_PIN = 38,    /* (frame, device) -> 0; a1 = the frame's physical address,
				      * a2 = its pages: the frame is the device's to DMA into
				      * (device: a device frame, WRITE; a RAM frame made with
				      * TACET_FRAME_DMA, else EINVAL); if it ends while pinned its
				      * pages go to the device's quarantine, not back to the pool */
	TACET_SYS_FRAME_UNPIN = 39,  /* (frame, device) -> 0: the device it is pinned to (this
				      * one, or one within it) is done with it; EPERM for another */
	TACET_SYS_DEVICE_RELEASE = 40, /* (device) -> pages: the device was made quiet (reset):
				      * the frames of its quarantine pinned within this device
				      * frame go back to the pool, and those pinned within it that
				      * have not ended are unpinned (their end frees them) (needs
				      * TACET_RIGHT_RELEASE on it; a derived frame has its
				      * source's rights at most) */
	TACET_SYS_ENDPOINT_WATCH = 41, /* (endpoint, ntfn, badge) -> 0: signal badge at the
				      * endpoint's end (its server ended); badge 0: no more */
	TACET_SYS_TRACE = 42,        /* (op, trace) -> 0: stop or start recording the kernel's
				      * event trace (<tacet/trace.h>: TACET_TRACE_STOP, _START);
				      * EPERM unless slot `trace` holds a TACET_CAP_TRACE; ENOSYS
				      * in a boot without the boot argument trace=on */
	TACET_SYS_IRQ_MSI_NEW = 43,  /* (bus, hart, dst) -> 0: a message-signalled interrupt line
				      * on hart's interrupt file, its IRQ handler capability in
				      * dst (bound, acknowledged and moved as any line's); a1 = the
				      * address and a2 = the data its device must write, a3 = its
				      * number. bus: a PCI bus window's device frame with
				      * TACET_RIGHT_RELEASE (the bus server's). ENODEV: no MSI
				      * controller (the PLIC's machine); ENOMEM: none left */
	TACET_SYS_IRQ_MSI_FREE = 44, /* (bus, irq) -> 0: the line's binders leave, its identity is
				      * disabled in every file and its pending message dropped
				      * (counted spurious); the line goes back to the pool. Its
				      * device must write it no more (the bus server masked it) */
	TACET_SYS_PROCESS_END = 45,  /* (process) -> 0: end it, every thread of it, with
				      * -TACET_EDEAD (its supervisor's end of a server that stopped
				      * answering); needs WRITE; EDEAD if it has ended */
	TACET_SYS_INJECT = 46,       /* (op, trace, tid, where, value) -> where it struck: a fault
				      * thrown into a driver's thread (enum tacet_inject_op); only in
				      * the faults kernel (build/faults), ENOSYS in every other */
	TACET_SYS_COUNT
};

/* Error codes, returned negated. lib/ has tacet_strerror(). */
enum tacet_err {
	TACET_OK = 0,
	TACET_EINVAL = 1,   /* an argument is out of its range */
	TACET_ENOSYS = 2,   /* no such system call */
	TACET_EBADSLOT = 3, /* the slot number is outside the capability table */
	TACET_EEMPTY = 4,   /* the slot holds no capability */
	TACET_ETYPE = 5,    /* the capability is of the wrong type for this call */
	TACET_EPERM = 6,    /* the capability lacks a right this call needs */
	TACET_EFAULT = 7,   /* a user pointer is not mapped readable/writable by the caller */
	TACET_EALIGN = 8,   /* an address is not suitably aligned */
	TACET_ENOMEM = 9,   /* the caller's memory budget (or the kernel's memory) is used up */
	TACET_EEXIST = 10,  /* the destination slot or address is already in use */
	TACET_ENOREPLY = 11, /* the server received another message without replying */
	TACET_EDEAD = 12,   /* the other side is gone */
	TACET_ERANGE = 13,  /* a length or count is too large */
	TACET_ENOENT = 14,  /* nothing at that index (TACET_SYS_INFO) */
	TACET_EBUSY = 15,   /* the object is in a state that does not allow this */
	TACET_EDISABLED = 16, /* the kernel disabled the interrupt line (IRQ_ENABLE restores) */
	TACET_ENODEV = 17,  /* the machine has no such device (no MSI controller) */
	TACET_ECORRUPT = 18, /* data failed its check: not what was written there (lib's sealed
			      * sectors, <tacet/blk_seal.h>); the kernel never says it */
	TACET_ERRNO_COUNT
};

/* Capability types and rights. */
enum tacet_cap_type {
	TACET_CAP_NULL = 0,
	TACET_CAP_ENDPOINT = 1,
	TACET_CAP_NOTIFICATION = 2,
	TACET_CAP_IRQ = 3,
	TACET_CAP_FRAME = 4,
	TACET_CAP_PROCESS = 5,
	TACET_CAP_THREAD = 6,
	TACET_CAP_TRACE = 7, /* the trace authority (one kernel object): TRACE, INFO_TRACE, and
			      * every interrupt line's timing in INFO_IRQ and INFO_IRQ_HIST */
};
#define TACET_RIGHT_READ  (1u << 0) /* recv / wait / map readable */
#define TACET_RIGHT_WRITE (1u << 1) /* call, send / signal / map writable */
#define TACET_RIGHT_GRANT (1u << 2) /* may carry capabilities in messages */
/* A device frame's: may release the device's DMA quarantine (TACET_SYS_DEVICE_RELEASE): the
 * holder of the device (init), not its driver, once it has made the device quiet. */
#define TACET_RIGHT_RELEASE (1u << 4)
#define TACET_RIGHTS_ALL  (TACET_RIGHT_READ | TACET_RIGHT_WRITE | TACET_RIGHT_GRANT)
/* On a process capability WRITE is what changes the process (MAP, UNMAP, THREAD_NEW, CAP_GIVE,
 * PROCESS_NEW's children...); a process capability without rights can only be watched
 * (PROCESS_WATCH): what a server hands another so it can learn of its end and nothing more. */
/* CAP_INFO's a5 for a frame: not RAM the kernel allocated (FRAME_NEW) but device MMIO or boot
 * memory (the module archive, the DTB) it wrapped; or RAM made for DMA (part of one: a derived
 * frame's root); a5 is 0 for every other capability. */
#define TACET_FRAME_DEVICE 1ul
/* FRAME_NEW's flag, and CAP_INFO's a5: RAM made for DMA, from the top of memory, where a device
 * told a wrong length writes on into other DMA frames only (docs/drivers.md, "A wrong length");
 * the only RAM FRAME_PIN gives a device (else TACET_EINVAL). */
#define TACET_FRAME_DMA 2ul
/* Mapping rights for TACET_SYS_MAP: READ, WRITE, and: */
#define TACET_MAP_EXEC    (1u << 3) /* never together with WRITE (W^X) */

/* The message tag: label (what the message means, defined by each protocol), how many of the
 * data words are valid, and whether the sender's capability in slot `cap` travels with it
 * (needs GRANT on the endpoint capability; lands in the receiver's recv_slot). A received
 * tag has the capability bit set only if one arrived, with TACET_TAG_SLOT = the recv_slot. At
 * most TACET_MSG_WORDS words: more is TACET_EINVAL. A reply may carry a capability too (no right
 * needed: the caller asked for one by naming an empty reply_slot in its CALL; without one the
 * capability is dropped and the caller's tag says so). Labels from
 * TACET_LABEL_KERNEL (0x8000) up are reserved for the kernel (below). */
#define TACET_TAG(label, words) \
	(((unsigned long)(label) & 0xffff) << 16 | ((unsigned long)(words) & 0xf))
#define TACET_TAG_CAP(label, words, slot) \
	(TACET_TAG(label, words) | 1ul << 8 | ((unsigned long)(slot) & 0xffffffff) << 32)
#define TACET_TAG_LABEL(tag)   (((tag) >> 16) & 0xffff)
#define TACET_TAG_WORDS(tag)   ((tag) & 0xf)
#define TACET_TAG_HAS_CAP(tag) (((tag) >> 8) & 1)
#define TACET_TAG_SLOT(tag)    ((tag) >> 32)

/* Scheduling word for THREAD_NEW / THREAD_SET: priority 0..255 (255 most urgent) and the hart
 * (logical number) the thread runs on. */
#define TACET_SCHED(prio, hart) ((unsigned long)(prio) | (unsigned long)(hart) << 8)
#define TACET_SCHED_PRIO(s)     ((s) & 0xff)
#define TACET_SCHED_HART(s)     (((s) >> 8) & 0xff)
#define TACET_PRIO_MAX 255

/* TACET_SYS_INFO kinds. */
enum tacet_info {
	TACET_INFO_THREAD = 0, /* struct tacet_thread_info of the index-th thread */
	TACET_INFO_MEM = 1,    /* struct tacet_mem_info (index 0) */
	TACET_INFO_HART = 2,   /* struct tacet_hart_info of hart index */
	/* An interrupt line's counts and state to anyone; its timing (trap and done stamps,
	 * top-half, wake-up and server times, their histograms) only to a process bound to it
	 * or with the trace authority (INFO's trace slot): others read those as 0, since when a
	 * line fired, to the cycle, is what another server's input (keystrokes) reveals. */
	TACET_INFO_IRQ = 3,    /* struct tacet_irq_info of interrupt line index */
	TACET_INFO_IRQ_HIST = 4, /* struct tacet_irq_hist of interrupt line index */
	TACET_INFO_CLOCK = 5,  /* struct tacet_clock_info (index 0) */
	TACET_INFO_TRACE = 6,  /* struct tacet_trace_info and events (<tacet/trace.h>); needs
				* the trace authority (INFO's trace slot; else EPERM) */
	/* struct tacet_process_info of the process whose capability is in slot `index`, which
	 * must be a process's with WRITE (its supervisor's): EBADSLOT, EEMPTY, ETYPE, EPERM */
	TACET_INFO_PROCESS = 7,
};

#define TACET_INFO_MAX_HARTS 8

struct tacet_irq_info {
	unsigned int irq;
	unsigned int state; /* 0 unbound, 1 idle, 2 pending (waiting for irq_ack), 3 disabled */
	unsigned int hart;  /* the hart it is routed to */
	unsigned int bound; /* binders (or 1 for an in-kernel handler) */
	unsigned long count;
	unsigned long per_hart[TACET_INFO_MAX_HARTS];
	unsigned long top_half_max;   /* cycles, trap entry to top half done */
	unsigned long top_half_total;
	unsigned long spurious_all;   /* claims that found no line, all lines together */
	unsigned long unhandled;      /* interrupts no binder handled */
	unsigned long disabled_count; /* times storm or spurious detection disabled it */
	unsigned long wake_max, wake_avg;     /* cycles, top half done -> server running */
	unsigned long server_max, server_avg; /* cycles, server running -> its irq_ack */
	/* The cycle counter at the latest interrupt's trap entry and at the end of its top half
	 * (under -icount: retired instructions, so the benchmarks take latencies from them). */
	unsigned long last_trap, last_done;
	unsigned int msi;  /* a message-signalled line (the controller's pool, after its wired
			    * ones) */
	unsigned int lent; /* msi: lent to a device now (IRQ_MSI_NEW, until IRQ_MSI_FREE or the
			    * lender's end) */
};

/* A line's log2 histograms (<tacet/log2hist.h>: bucket k counts the values of bit length k),
 * in cycles, all harts together, since boot: the top half (trap entry -> top half done: one
 * value per interrupt, so `top` adds up to count), the wake-up latency (top half done -> the
 * woken server running) and the server time (running -> its irq_ack), with their exact
 * maxima and sums (a Prometheus histogram's _sum). One snapshot: count, the maxima, the sums
 * and the buckets agree. */
#define TACET_IRQ_HIST_BUCKETS 32 /* TACET_LOG2HIST_BUCKETS */
struct tacet_irq_hist {
	unsigned int irq;
	unsigned int state; /* as tacet_irq_info's */
	unsigned int bound; /* binders (or 1 for an in-kernel handler) */
	unsigned int pad;
	unsigned long count;
	unsigned long top_max, wake_max, server_max;
	unsigned long top_sum, wake_sum, server_sum;
	unsigned long top[TACET_IRQ_HIST_BUCKETS];
	unsigned long wake[TACET_IRQ_HIST_BUCKETS];
	unsigned long server[TACET_IRQ_HIST_BUCKETS];
};

/* The cycle counter against the timebase, for turning cycles into time: each pair read back to
 * back, at boot on the boot hart and now on the caller's. Without QEMU's -icount the counter
 * runs at the host's rate, which nothing describes: its rate is (cycles - boot_cycles) /
 * (time - boot_time) timebase ticks, timebase_hz of them a second (the device tree's
 * timebase-frequency). Under -icount shift=0 it counts retired instructions, one a
 * nanosecond of guest time; the boot argument cycles=instructions says so (flags). */
#define TACET_CLOCK_INSTRUCTIONS 1ul /* boot argument cycles=instructions */
struct tacet_clock_info {
	unsigned long timebase_hz;
	unsigned long boot_cycles, boot_time;
	unsigned long cycles, time;
	unsigned long flags;
};

struct tacet_thread_info {
	char process[16];
	unsigned int tid;
	unsigned int hart;
	unsigned int priority;
	unsigned int state; /* enum tacet_thread_state */
};

/* A process's first thread that has not ended (the one its creator started: a server's
 * service loop), for its supervisor's liveness check: whether it ran since a question was
 * asked (preempted since, or running now) or never got its hart. */
struct tacet_process_info {
	unsigned long preemptions; /* times the scheduler took it off its hart while it could run
				    * on (a more urgent thread, its slice's end, a yield); a fast
				    * path's direct switch to an interrupt's driver or a signal's
				    * waiter is not counted; modulo 2^32: compare two for a
				    * change, not for their order */
	unsigned int state;   /* enum tacet_thread_state; TACET_THREAD_DEAD: no thread left */
	unsigned int tid;
	unsigned int hart;
	unsigned int threads; /* its threads that have not ended */
	/* The cycle counter at the trap entry of the oldest interrupt of a line bound shared
	 * (TACET_IRQ_SHARED) that it was signalled and has not acknowledged: until it does, the
	 * line stays masked for every server on it, also one that binds it later. 0: none. A
	 * token, not a time to compare: the same value later means that interrupt is still
	 * unacknowledged. */
	unsigned long irq_held;
	/* The same for a line it has alone (bound without TACET_IRQ_SHARED, or message-
	 * signalled): the oldest interrupt it was signalled and has neither taken (the badge's
	 * bits are still in the notification the line signals) nor acknowledged: it has not
	 * looked at its device's interrupt since, and the line stays masked until it does. One
	 * taken and not yet acknowledged (lib's device loop puts the ack off to its next wait)
	 * is not reported. 0: none. A token, like irq_held. */
	unsigned long irq_held_own;
};

enum tacet_thread_state {
	TACET_THREAD_RUNNING, TACET_THREAD_READY, TACET_THREAD_BLOCKED_SEND,
	TACET_THREAD_BLOCKED_RECV, TACET_THREAD_BLOCKED_REPLY, TACET_THREAD_BLOCKED_NTFN,
	TACET_THREAD_FAULTED, TACET_THREAD_DEAD,
};

struct tacet_mem_info {
	unsigned long total_pages;
	unsigned long free_pages;
	unsigned long kernel_objects;      /* live kernel objects */
	unsigned long kernel_object_pages; /* pages the object caches hold now */
	/* Where memory's two sides have lain since boot (the kernel's pages and frames not for DMA
	 * low, DMA frames high, so that a device writing past a DMA frame's end, as no IOMMU stops
	 * it, runs through DMA frames and off the end of RAM): the end of the highest page of the
	 * low side, the lowest DMA frame's physical address (0: none yet), and how many
	 * allocations landed where the other side had been (0: the low side lay below every DMA
	 * frame). */
	unsigned long low_end;
	unsigned long dma_start;
	unsigned long sides_met;
};

struct tacet_hart_info {
	unsigned long hwid;
	unsigned long timer_irqs;
	unsigned long ipis;
	unsigned long ext_irqs;
	unsigned long syscalls;
	/* The big kernel lock on this hart, in cycles (instructions under QEMU -icount): its
	 * longest hold, the trap cause (scause) and call number (a7) of the thread the hart went
	 * back to after it (both 0: it went idle), and its longest wait for the lock. */
	unsigned long bkl_hold_max;
	unsigned long bkl_hold_cause;
	unsigned long bkl_hold_call;
	unsigned long bkl_wait_max;
	/* Its waits for the lock (the hand-over: from its arrival to its take, when the lock was
	 * held), in log2 buckets (bucket k: the waits of bit length k; their sum is the count), their
	 * total and how many of them slept (waited in wfi for the holder's IPI). */
	unsigned long bkl_wait_hist[TACET_IRQ_HIST_BUCKETS];
	unsigned long bkl_wait_total;
	unsigned long bkl_wait_slept;
};

/* IRQ_BIND flags: the line may be shared (each binder must pass it). */
#define TACET_IRQ_SHARED 1u

/* Labels from TACET_LABEL_KERNEL up are the kernel's own: only the kernel sends them, so a
 * receiver can trust a message that carries one. A CALL, REPLY or REPLY_RECV from user mode with
 * such a label fails with TACET_EINVAL and delivers nothing. */
#define TACET_LABEL_KERNEL 0x8000
#define TACET_TAG_IS_KERNEL(tag) (((tag) >> 31) & 1) /* the label's top bit */

/* A RECV on a thread with a bound notification (NTFN_BIND) returns this label when the
 * notification was signalled: w0 = the bits (taken and cleared), badge 0. */
#define TACET_LABEL_NOTIFY 0xb175

/* Fault message sent to a process's fault endpoint: label, then the words below. */
#define TACET_LABEL_FAULT 0xfa17
/* words: [0] cause (scause), [1] pc, [2] faulting address (stval), [3] thread id.
 * The reply's label decides: resume the thread (after fixing what faulted), end that thread
 * alone, or end its whole process (what the kernel does itself when a process has no fault
 * endpoint, or its supervisor ends before it answers). */
enum tacet_fault_reply {
	TACET_FAULT_RESUME = 0,
	TACET_FAULT_KILL = 1, /* the thread alone */
	TACET_FAULT_END = 2,  /* its process: every thread ends, with -TACET_EFAULT */
};

/* TACET_SYS_INJECT (the faults kernel's, kernel/inject/inject.c): with the trace authority in slot
 * `trace`, a fault into thread `tid` of a driver (a process that has an interrupt line bound or a
 * device's registers mapped, not the caller's, not init), which must not be running (EBUSY: try
 * again). Errors: EPERM (no authority, or not a driver's thread), ENOENT (no such thread), EDEAD
 * (it has ended), EINVAL (op, register or bit out of range), EBUSY, ENODEV (a fault into what the
 * device is given: below). The text and data picked are the process's own pages (init loads a copy
 * for each);
 * `where` picks a word among all of them (modulo). Its answer: a0 where it struck, a1
 * TACET_INJECT_FOUND_* (what the word or register held). Op flags:
 *  - TACET_INJECT_BUSY: only into a thread stopped at a random moment of its work, ready to run
 *    but taken off its hart by an interrupt (a more urgent thread woken there), not one waiting
 *    in, or just woken from, a system call (EBUSY);
 *  - TACET_INJECT_DMA: the word may lie in a frame pinned for DMA (a device reads the
 *    addresses there), and the word or register may hold a DMA address, one within a frame
 *    pinned to a device the driver maps (else ENODEV, nothing changed). The device writes
 *    where such an address says; the machine has no IOMMU to confine it to the driver's
 *    pages, so such a fault may overwrite any memory, the kernel's too: the kernel is not
 *    protected from it;
 *  - TACET_INJECT_PROBE: decode only, nothing changed: the same answer (where, what it found,
 *    or the error) the call would give. */
enum tacet_inject_op {
	TACET_INJECT_REG = 0,   /* flip bit `value` (0..63) of register `where` (1..31: x1..x31,
				 * TACET_INJECT_REG_PC: the pc it resumes at); -> where */
	TACET_INJECT_TEXT_FLIP, /* flip bit `value` (0..31) of the instruction word `where` picks
				 * in its executable pages; -> the word's address */
	TACET_INJECT_TEXT_SET,  /* the instruction word `where` picks becomes `value` (32 bits) */
	TACET_INJECT_DATA,      /* the 64-bit word `where` picks in its writable RAM pages (data,
				 * heap, stack, DMA buffers; not device registers) becomes `value` */
	TACET_INJECT_HANG,      /* an endless loop (`j .`, 16 bits) at the pc it resumes at, which
				 * must be in its executable pages: it spins once it runs; -> pc */
	TACET_INJECT_REPLY,     /* garbage to a client: the thread's next reply carries, in place
				 * of each of its words, a number made from `value` (not 0) and
				 * the word's index; -> 0 */
	TACET_INJECT_DEAF,      /* it stops consuming its rings: the notification bound to the
				 * thread (NTFN_BIND: its device's interrupts, its clients' kicks)
				 * is unbound, so its receive loop answers calls but never again
				 * those signals (ENOENT: none bound; `value` 0); -> 0 */
	TACET_INJECT_OPS
};
#define TACET_INJECT_REG_PC 32
#define TACET_INJECT_BUSY 0x100ul  /* op flags: see above */
#define TACET_INJECT_DMA 0x200ul
#define TACET_INJECT_PROBE 0x400ul
#define TACET_INJECT_FLAGS (TACET_INJECT_BUSY | TACET_INJECT_DMA | TACET_INJECT_PROBE)
#define TACET_INJECT_FOUND_PINNED 1ul      /* a1: the word lies in a frame pinned for DMA */
#define TACET_INJECT_FOUND_DMA_ADDRESS 2ul /* a1: the word or register held a DMA address */

#endif
