/* syscall.h: the system call table's dispatcher, and what every system call uses to read its
 * arguments and answer. Each object's calls live beside it (kernel/object, irq/irq.c): each
 * decodes every argument first (rights, slots, ranges, user pointers) and changes nothing
 * when one is bad, then invokes, which cannot fail half-way. BKL held, on the calling thread's
 * hart. */
#ifndef KERNEL_SYSCALL_H
#define KERNEL_SYSCALL_H

#include "arch.h"
#include "object/thread.h"

/* The system calls by number (a7), NULL where none; entry.c's general path runs them
 * (syscall_dispatch, inline there: it is every slow call's way in). */
typedef void (*syscall_fn)(struct thread *t);
extern const syscall_fn syscall_table[TACET_SYS_COUNT];

/* t's call, not over, waits for a more urgent thread of this hart (sched_more_urgent_here): t
 * makes TACET_SYS_RESUME when it next runs (its a7 changed, its pc back on the ecall), which
 * goes on with the call: a teardown it left, whose result is kept (syscall.c), or a frame half
 * zeroed (t->held_frame, frame.c). Its other registers stay as they are meanwhile. */
void syscall_hold_back(struct thread *t);

/* Argument i of t's call (a0..a6). */
static inline unsigned long syscall_arg(const struct thread *t, int i)
{
	return arch_ctx_arg(&t->ctx, i);
}

/* The one way a call answers: a0 = v, a result (>= 0) or an error (-TACET_E*). Further
 * results go to a1.. with arch_ctx_set_ret. */
static inline void syscall_ret(struct thread *t, long v)
{
	arch_ctx_set_ret(&t->ctx, 0, (unsigned long)v);
}

#endif
