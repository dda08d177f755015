/* inject.h: the fault injector's system call (inject.c), TACET_SYS_INJECT, in the faults kernel
 * only (build/faults: every object compiled with -DCONFIG_FAULTS, plus kernel/inject). The
 * system call table names INJECT_SYSCALL: sys_inject there, NULL (ENOSYS) in every other kernel,
 * whose sources are the same and hold no injector. */
#ifndef KERNEL_INJECT_H
#define KERNEL_INJECT_H

#ifdef CONFIG_FAULTS
struct thread;
void sys_inject(struct thread *t);
#define INJECT_SYSCALL sys_inject
/* TACET_INJECT_REPLY's: is garbage due in t's next reply (the reply fast path leaves it to the
 * slow one)? The words that reply carries: w itself, or buf filled with the garbage. */
#define INJECT_REPLY_PENDING(t) ((t)->inject_reply != 0)
const unsigned long *inject_reply_words(struct thread *t, const unsigned long *w,
					unsigned long tag, unsigned long *buf);
#else
#define INJECT_SYSCALL NULL
#define INJECT_REPLY_PENDING(t) 0
#define inject_reply_words(t, w, tag, buf) ((void)(buf), (w))
#endif

#endif
