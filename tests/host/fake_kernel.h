/* fake_kernel.h: host stand-ins for the kernel services generic code calls (pages, the direct
 * map, kobj_put, kalloc, panic), built as tests/host/fake_kernel.c, with counters and a record
 * tests inspect.
 * A test linking it needs -Ikernel/arch/riscv/include (arch.h reaches the port's types). */
#ifndef TESTS_HOST_FAKE_KERNEL_H
#define TESTS_HOST_FAKE_KERNEL_H

#include <stddef.h>
#include "object/kobj.h"

#include "fake_pages.h" /* pages and panic: link tests/host/fake_pages.c too */

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
