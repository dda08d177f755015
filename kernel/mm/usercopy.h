/* usercopy.h: copying between the kernel and a process's memory. */
#ifndef KERNEL_MM_USERCOPY_H
#define KERNEL_MM_USERCOPY_H

#include <stdint.h>

struct process;

/* len bytes from p's address src to dst (to_user: from src to p's address dst), page by page
 * through p's page tables with READ (WRITE) access. 0, or -TACET_EFAULT with part copied. */
long copy_from_user(struct process *p, void *dst, uintptr_t src, uint64_t len);
long copy_to_user(struct process *p, uintptr_t dst, const void *src, uint64_t len);

#endif
