/* syscall.h: the system call dispatcher (BKL held, on the calling thread's hart). */
#ifndef KERNEL_SYSCALL_H
#define KERNEL_SYSCALL_H

#include "object/thread.h"

/* Run the call in t's registers (a7 = number); results go to t's registers. */
void syscall_dispatch(struct thread *t);

#endif
