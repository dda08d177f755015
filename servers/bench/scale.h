/* scale.h: what the scaling benchmarks share (a path's cost must not grow with what else
 * the machine holds): children that sleep or serve, made from one code page, and a keeper
 * of the capabilities that keep them (or any other object) alive without filling the
 * benchmark's own 128 slots.
 *
 * A child is a process of its own (named "scale") with the code page mapped at SCALE_CHILD_VA
 * and one object in slot SCALE_CHILD_SLOT_OBJ, and one thread, started at one of the page's
 * programs with no stack (scale.c):
 *   SCALE_SLEEP  waits on the object (a notification) for ever: a sleeping server;
 *   SCALE_SERVE  receives on the object (an endpoint) and answers every call with an empty
 *                message (REPLY_RECV), as bench_ipc_srv does.
 * A failed call ends the thread. The keeper is a process without threads: each capability
 * given to it lives in its table (127 of them), and a full keeper is itself given to the next
 * one, so a benchmark holds one slot whatever it keeps; the machine's power-off ends them all.
 */
#ifndef BENCH_SCALE_H
#define BENCH_SCALE_H

#define SCALE_CHILD_NAME     "scale"
#define SCALE_CHILD_VA       0x0000000000010000ul
#define SCALE_CHILD_SLOT_OBJ 2

enum scale_program { SCALE_SLEEP, SCALE_SERVE };

/* The code page (frame in slot code_slot, filled through a mapping at fill_va, which is then
 * unmapped; none if code_slot is 0: no children) and the first keeper, in keeper_slot; spare_slot is the keeper's for a moment when
 * one is full. 0 or -TACET_E*. */
long scale_setup(unsigned long code_slot, unsigned long keeper_slot, unsigned long spare_slot,
		 unsigned long fill_va);
/* A child in slot proc_slot running program with the object of obj_slot (rights) in its
 * SCALE_CHILD_SLOT_OBJ, its thread at prio on hart. 0 or -TACET_E*. */
long scale_child_new(unsigned long proc_slot, unsigned long obj_slot, unsigned long rights,
		     enum scale_program program, unsigned int prio, unsigned int hart);
/* Sleeps (lib's tacet_sleep_ns, SCALE_SETTLE_NS at a time, at most SCALE_SETTLE_TRIES times)
 * until `children` children's threads wait (in WAIT or RECV): a child is READY until its hart
 * has nothing more urgent to run, and a READY thread is no sleeping server. 0 or -TACET_EBUSY. */
#define SCALE_SETTLE_NS    100000
#define SCALE_SETTLE_TRIES 100
long scale_settle(unsigned long children);
/* The capability in slot moves to the keeper (the slot is empty after). 0 or -TACET_E*. */
long scale_keep(unsigned long slot);

#endif
