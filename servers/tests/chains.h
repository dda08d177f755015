/* chains.h: what the chain servers (chain_frame, chain_cap, chain_proc, chain_fault) share.
 * Each builds, out of kernel objects, a chain thousands of links deep whose end a naive kernel
 * would follow by recursion (and overflow its 16 KiB stack), ends it, and checks that every
 * link went and every page and kernel object came back (chains.c). */
#ifndef CHAINS_H
#define CHAINS_H

#include <tacet.h>
#include <tacet/init_proto.h>

#define CHAIN_DEPTH 3000ul/* links of every chain but the frames' (which are cheap) */
#define CHAIN_NAME  "chain" /* the processes of a chain */

/* Slots in the tester (the chain server). */
enum {
	SLOT_CODE = TACET_CHILD_FIRST_FREE, /* the page holding chain_code */
	SLOT_BLOCK,  /* notification the chain's threads wait on; never signalled */
	SLOT_READY,  /* notification a chain signals: bit 1 complete, bit 2 a level failed */
	SLOT_WATCH,  /* notification for PROCESS_WATCH */
	SLOT_EP,     /* the tester's endpoint (the top of a fault chain reports to it) */
	SLOT_FIRST,  /* the first link of a chain */
	SLOT_A,      /* two slots for building: the link before, the link made now */
	SLOT_B,
	SLOT_FRAME,
};

/* Slots in every process of a chain: what chain_code expects. */
enum {
	CHAIN_SLOT_CODE = 1,   /* the code frame (to map into the child) */
	CHAIN_SLOT_BLOCK = 2,  /* READ: wait here for ever */
	CHAIN_SLOT_READY = 3,  /* WRITE: tell the tester (absent: the signal fails, ignored) */
	CHAIN_SLOT_CHILD = 4,  /* the next link */
	CHAIN_SLOT_FAULT = 5,  /* the endpoint the child's faults come to (fault chains) */
};

#define CHAIN_VA     0x0000000000010000ul /* chain_code in every chain process */
#define CHAIN_FAULTS (1ul << 32) /* chain_code's a0: a fault chain, not a plain one */
#define CHAIN_PRIO   50          /* below the tester's (init's default, 100) */
#define READY_DONE   1ul
#define READY_FAILED 2ul

/* A verdict that also counts failures (chains_failed). */
const char *verdict(int ok);
extern int chains_failed;

/* The kernel's memory figures, and whether they are back to `before` (printed with what). */
void mem_snapshot(struct tacet_mem_info *m);
void mem_check(const char *who, const struct tacet_mem_info *before);
/* Threads of processes named CHAIN_NAME, and how many of them are in `state`. */
unsigned long chain_threads(unsigned int state, unsigned long *in_state);

/* Set-up every chain server does first, before its memory baseline: the code page in
 * SLOT_CODE (filled with chain_code), BLOCK, READY and WATCH, the tester's own page tables for
 * the code's address. 0 or -TACET_E*. */
long chains_setup(void);
/* A new process (CHAIN_NAME, its faults to fault_ep, 0: none) in slot dst of the tester, with
 * chain_code mapped at CHAIN_VA and CODE, BLOCK and, if `ready`, READY in its slots. */
long chain_process_new(unsigned long dst, unsigned long fault_ep, int ready);
/* Starts chain_code in process `slot` with a0 = arg, at prio on the tester's hart. 0 or
 * -TACET_E*. */
long chain_thread_new(unsigned long slot, unsigned long arg, unsigned int prio);

/* The chains (also the stress_chains stressor's, servers/bench), each from SLOT_FIRST, 0 or
 * -TACET_E*. chain_cap_build: depth processes, process i holding process i + 1 in
 * CHAIN_SLOT_CHILD; with `threads`, each with chain_code mapped and a thread waiting on BLOCK,
 * the last one (lowest priority: it runs after all the others waited) signalling READY first;
 * the tester watches the last one. chain_proc_build: depth processes, each created by the one
 * before (chain_code), each with a thread waiting on BLOCK, the first watched; returns once
 * the last one said READY_DONE. chain_end: deletes the tester's capability to the first, which
 * ends the chain (and, if `watched`, checks the watch fired). chain_frame_derive: depth frames
 * from SLOT_FRAME's, each derived from the one before (in SLOT_A and SLOT_B), each one's
 * capability deleted once the next is made; returns the slot of the last (0 on an error, in
 * *err). */
long chain_cap_build(unsigned long depth, int threads);
long chain_proc_build(unsigned long depth);
long chain_end(int watched);
unsigned long chain_frame_derive(unsigned long depth, long *err);

/* The longest hold of the big kernel lock any hart has seen so far (TACET_INFO_HART): that
 * hart's record in *best (bkl_hold_max, and the trap cause and call of the thread its hart went
 * back to after the hold); returns the hart. (Also bench_stress's, servers/bench.) */
unsigned long bkl_longest_hold(struct tacet_hart_info *best);
/* Prints the longest hold of the big kernel lock any hart has seen so far (TACET_INFO_HART),
 * with the trap cause and call of the thread its hart went back to: what a chain's end cost the
 * other harts (no kernel entry may be long). */
void chains_report_bkl(const char *who);

#endif
