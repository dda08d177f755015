/* fake_pages.h: host stand-ins for the page allocator, the direct map and panic, built as
 * tests/host/fake_pages.c, with a count and a limit tests use.
 * A test linking it needs -Ikernel/arch/riscv/include (arch.h reaches the port's types). */
#ifndef TESTS_HOST_FAKE_PAGES_H
#define TESTS_HOST_FAKE_PAGES_H

#include <stddef.h>

/*
 * Pages: page_alloc_zeroed() hands out zeroed, page-aligned host memory whose host address is
 * its "physical" address (arch_phys_to_virt() is the identity); page_free() frees it. Freeing
 * a page twice or one not handed out is an ASan report; one never freed is a LeakSanitizer one.
 * page_alloc_run() hands out a run full of FAKE_PAGES_DIRTY bytes (not zeroed, like the
 * kernel's), which goes back whole with page_free_run(); page_zero() zeroes a page.
 * panic() fails the current test with its message.
 */
#define FAKE_PAGES_DIRTY 0xa5

size_t fake_pages_in_use(void);
/* Fail (return 0) once this many pages are in use; SIZE_MAX (the default) never fails. */
void fake_pages_set_limit(size_t limit);

#endif
