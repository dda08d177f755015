/* kalloc.h: allocation of kernel objects (threads, processes, endpoints, ...) from size-class
 * caches carved out of pages. Objects come back zeroed. Any hart, interrupts masked. */
#ifndef KERNEL_KALLOC_H
#define KERNEL_KALLOC_H

#include <stddef.h>

#define KALLOC_MAX 2032 /* larger things take whole pages (page_alloc_zeroed) */

void *kalloc(size_t size);
/* size must be what obj was allocated with. */
void kfree(void *obj, size_t size);
/* What an object of `size` bytes really takes (its size class): what accounts are charged. */
size_t kalloc_size(size_t size);
/* Objects allocated and not freed: the leak check of tests and `mem`. */
size_t kalloc_live(void);
/* Pages the caches hold now (empty slabs go back at once). */
size_t kalloc_pages(void);

#endif
