/* usercopy.c: copying between the kernel and a process's memory (usercopy.h), through its page
 * tables, never trusting the user's address: every page is looked up with the access asked
 * for. BKL held (the process's mappings cannot change meanwhile). */
#include "mm/usercopy.h"
#include "arch.h"
#include "lib/kstring.h"
#include "mm/page_alloc.h"
#include "object/process.h"
#include <tacet/abi.h>

static long copy_user(struct process *p, uintptr_t uva, void *kbuf, uint64_t len, int to_user)
{
	while (len) {
		uint64_t pa, chunk = PAGE_SIZE - (uva & (PAGE_SIZE - 1));
		unsigned int need = to_user ? TACET_RIGHT_WRITE : TACET_RIGHT_READ;

		if (chunk > len)
			chunk = len;
		if (arch_aspace_lookup(p->root, uva, need, &pa) < 0)
			return -TACET_EFAULT;
		if (to_user)
			memcpy((void *)arch_phys_to_virt(pa), kbuf, chunk);
		else
			memcpy(kbuf, (void *)arch_phys_to_virt(pa), chunk);
		uva += chunk;
		kbuf = (char *)kbuf + chunk;
		len -= chunk;
	}
	return 0;
}

long copy_from_user(struct process *p, void *dst, uintptr_t src, uint64_t len)
{
	if (src + len < src || src + len > arch_user_top())
		return -TACET_EFAULT;
	return copy_user(p, src, dst, len, 0);
}

long copy_to_user(struct process *p, uintptr_t dst, const void *src, uint64_t len)
{
	if (dst + len < dst || dst + len > arch_user_top())
		return -TACET_EFAULT;
	return copy_user(p, dst, (void *)src, len, 1);
}
