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
#else
#define INJECT_SYSCALL NULL
#endif

#endif
