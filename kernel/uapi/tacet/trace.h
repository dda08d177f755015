/* trace.h: the kernel's event trace as user space reads it (TACET_INFO_TRACE) and controls it
 * (TACET_SYS_TRACE); kernel/core/trace.c records it, tools/trace/trace.py turns a dump into a
 * Chrome/Perfetto trace (docs/tracing.md). Shared by the kernel, lib/ and the host tools'
 * reader (the layout is what trace.py decodes: keep them together).
 *
 * Each hart has its own ring of events, in the order that hart recorded them; every time is
 * the cycle counter (rdcycle: retired instructions under QEMU -icount) when the event was
 * recorded. The ring stops when full: later events are counted as dropped, never written over
 * the first ones. */
#ifndef TACET_TRACE_H
#define TACET_TRACE_H

/* Event kinds, and what a, b and since mean for each. tid: a thread's id (TACET_SYS_SELF's). */
enum tacet_trace_kind {
	TACET_TRACE_IRQ = 1,    /* a top half done: a = the line, since = its trap entry; b = the
				 * thread the delivery switched to directly on this hart (0: none:
				 * what it woke, SIGNAL events inside the slice say) */
	TACET_TRACE_SIGNAL = 2, /* a notification signalled: a = the thread it woke (0: nobody
				 * waited, the bits stay), b = 1 if an interrupt's top half did */
	TACET_TRACE_SWITCH = 3, /* this hart runs thread a from now; b = why (tacet_trace_why) */
	TACET_TRACE_IDLE = 4,   /* this hart runs no thread and waits for an interrupt */
	TACET_TRACE_BKL = 5,    /* the BKL taken after a wait: since = when the wait began */
	TACET_TRACE_ACK = 6,    /* a driver acknowledged line a; b = 1 if handled */
	TACET_TRACE_CALL = 7,   /* an IPC call's message delivered to a waiting server a (the
				 * general path; 0: no server waited, the caller queues) */
	TACET_TRACE_REPLY = 8,  /* an IPC reply delivered to its caller a (the general path) */
	TACET_TRACE_THREAD = 9, /* a thread made: a = its tid; its process's name (a dump names
				 * a thread that ended before it by this) in the bytes of since,
				 * b and pad: struct tacet_trace_thread */
};

/* Why a SWITCH: the scheduler's pick, or a fast path's direct switch (fastpath.h). */
enum tacet_trace_why {
	TACET_TRACE_BY_SCHED = 0,
	TACET_TRACE_BY_CALL = 1,   /* an IPC call, to the server it reached */
	TACET_TRACE_BY_REPLY = 2,  /* an IPC reply, to the caller */
	TACET_TRACE_BY_SIGNAL = 3, /* a signal, to the more urgent waiter it woke */
	TACET_TRACE_BY_WAIT = 4,   /* the thread blocked in a wait (or IRQ_ACK_WAIT) */
};

struct tacet_trace_event {
	unsigned long ts;    /* the cycle counter when recorded (a slice's end) */
	unsigned long since; /* a slice's start (IRQ, BKL), else 0 */
	unsigned int kind;   /* enum tacet_trace_kind */
	unsigned int a, b;
	unsigned int pad;
};

/* A TACET_TRACE_THREAD event, read as what it holds: the process's name, NUL-padded (a name of
 * TACET_TRACE_NAME_MAX bytes has no NUL), its first 8 bytes where since is, the rest where b
 * and pad are. */
#define TACET_TRACE_NAME_MAX 16
struct tacet_trace_thread {
	unsigned long ts;
	char name[8];
	unsigned int kind; /* TACET_TRACE_THREAD */
	unsigned int tid;
	char name_end[TACET_TRACE_NAME_MAX - 8];
};

/* TACET_INFO_TRACE, index = hart | first << 8: this header, then as many of the hart's events
 * from the first-th on as fit in the buffer (at most TACET_TRACE_CHUNK a call); the call
 * returns the bytes written. A boot without trace=on has no rings: capacity 0. */
#define TACET_TRACE_CHUNK 32
struct tacet_trace_info {
	unsigned int hart;
	unsigned int recording; /* 1 while the kernel records (trace=on, TACET_SYS_TRACE) */
	unsigned long capacity; /* events the ring holds */
	unsigned long count;    /* events in it */
	unsigned long dropped;  /* events not recorded: the ring was full */
	unsigned long first;    /* the index of the first event that follows */
	unsigned long events;   /* how many follow */
	/* The clock: the device tree's timebase-frequency, and the cycle counter and rdtime read
	 * back to back when the rings were made (boot) and now. */
	unsigned long timebase_hz;
	unsigned long start_cycles, start_time;
	unsigned long cycles, time;
};

/* TACET_SYS_TRACE's operations. */
#define TACET_TRACE_STOP  0ul /* stop recording (what the rings hold stays) */
#define TACET_TRACE_START 1ul /* record again, after what the rings hold */

#endif
