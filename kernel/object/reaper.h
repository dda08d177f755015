/* reaper.h: the end of kernel objects without recursion. A user decides how long a chain of
 * objects is (a process whose cspace holds the only capability to the next process, a process
 * created by a process created by..., a faulted thread waiting for a supervisor that waits for
 * its own...), and the kernel stack is 16 KiB: so no step of a teardown calls the next one.
 * Each step queues the objects it would have ended or freed here; the queue is run in a loop,
 * to empty, on the way out of the kernel (sched_exit_to_user: nothing up the stack is in the
 * middle of anything then), with a preemption point between two objects. Stack depth is then
 * the same for a chain of 3 or of 3 million, and the longest time the BKL is held for it is one
 * object's end, not the chain's. A system call that queued work returns only once the queue is
 * empty: its caller sees one call that ended everything. BKL held. */
#ifndef KERNEL_REAPER_H
#define KERNEL_REAPER_H

#include <stdbool.h>
#include "object/kobj.h"

/* o's last reference went: queue it to be freed (kobj_reap frees it by type). */
void reaper_free(struct kobj *o);
/* Queue o (a process or thread; an ended endpoint with watchers to tell) to be ended; the
 * queue holds a reference until kobj_reap has ended it. Asking again before then does
 * nothing. */
void reaper_end(struct kobj *o);

/* reaper_end, but o goes first, before what was queued: the rest of an end done a step at a
 * time (process_reap: a thread a step) keeps its place in the order of ends. */
void reaper_end_first(struct kobj *o);

/* Run the queue until it is empty, or until between() says stop: after each object, the last
 * too (what the caller does next, a system call's own work, starts a stretch of the lock of its
 * own), between() is called (NULL: nothing): the caller's preemption point, which
 * may drop the BKL for a moment (meanwhile other harts may queue more, or run the queue
 * themselves: it is the BKL's) and returns true to leave the rest queued. Returns whether the
 * queue is empty. */
bool reaper_run(bool (*between)(void));
/* Whether objects wait in the queue. Inline: every way out of the kernel asks. */
extern struct kobj *reaper_head;
static inline bool reaper_pending(void)
{
	return reaper_head != NULL;
}

/* The reaper's work on one queued object (kobj.c; the host tests bring their own): free it
 * if it has no reference left, else end it and drop the queue's reference. */
void kobj_reap(struct kobj *o);

#endif
