/* fake_kernel.h: host stand-ins for the kernel services generic code calls (pages, the direct
 * map, kobj_put, kalloc, panic), built as tests/host/fake_kernel.c, with counters and a record
 * tests inspect.
 * A test linking it needs -Ikernel/arch/riscv/include (arch.h reaches the port's types). */
#ifndef TESTS_HOST_FAKE_KERNEL_H
#define TESTS_HOST_FAKE_KERNEL_H

#include <stddef.h>
#include "kobj.h"

/*
 * Pages: page_alloc_zeroed() hands out zeroed, page-aligned host memory whose host address is
 * its "physical" address (arch_phys_to_virt() is the identity); page_free() frees it. Freeing
 * a page twice or one not handed out is an ASan report; one never freed is a LeakSanitizer one.
 */
size_t fake_pages_in_use(void);
/* Fail (return 0) once this many pages are in use; SIZE_MAX (the default) never fails. */
void fake_pages_set_limit(size_t limit);

/*
 * Objects: kobj_put() drops a reference and, at zero, records the object as destroyed (in
 * order) instead of freeing it: the test owns its objects. Dropping a reference that does not
 * exist fails the current test.
 */
#define FAKE_DESTROYED_MAX 1024
size_t fake_kobj_put_calls(void);
size_t fake_destroyed_count(void);
struct kobj *fake_destroyed(size_t i);
/* How many times o has been destroyed (more than once is a bug in the code under test). */
size_t fake_destroyed_times(const struct kobj *o);

/*
 * Kernel objects: kalloc() hands out zeroed host memory and keeps every live object on a list,
 * so that objects the kernel keeps for ever (the irq descriptors) are not leaks; kfree() checks
 * the pointer and size against the allocation and fails the current test if they do not match.
 * kalloc_live() (kalloc.h) counts them.
 *
 * panic() fails the current test with its message.
 */

/* Forget every count and record and lift the page limit (pages and objects in use stay
 * counted). */
void fake_kernel_reset(void);

#endif
