/* reaper.h: the end of kernel objects without recursion. A user decides how long a chain of
 * objects is (a process whose cspace holds the only capability to the next process, a process
 * created by a process created by..., a faulted thread waiting for a supervisor that waits for
 * its own...), and the kernel stack is 16 KiB: so no step of a teardown calls the next one.
 * Each step queues the objects it would have ended or freed here, and the outermost caller
 * (the first to queue anything) runs the queue in a loop until it is empty. Stack depth is then
 * the same for a chain of 3 or of 3 million. BKL held. */
#ifndef KERNEL_REAPER_H
#define KERNEL_REAPER_H

#include "object/kobj.h"

/* o's last reference went: queue it to be destroyed (kobj_reap destroys it by type). */
void reaper_free(struct kobj *o);
/* Queue o (a process or thread) to be ended; the queue holds a reference until kobj_reap has
 * ended it. Asking again before then does nothing. */
void reaper_end(struct kobj *o);

/* The reaper's work on one queued object (kobj.c; the host tests bring their own): destroy it
 * if it has no reference left, else end it and drop the queue's reference. */
void kobj_reap(struct kobj *o);

#endif
