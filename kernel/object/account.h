/* account.h: kernel memory accounts. Every page and object the kernel allocates for a process
 * is charged, in bytes, to an account; allocation fails with TACET_ENOMEM once the account's
 * limit is reached, whatever is left in the machine. An account takes its limit from its
 * parent's when it is made (a reservation, as seL4's untyped memory is real memory: what a
 * server was given cannot be taken by anyone else) and gives it back when it ends. init's
 * account is the root: all memory free when init starts. BKL held. */
#ifndef KERNEL_ACCOUNT_H
#define KERNEL_ACCOUNT_H

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>

struct account {
	uint64_t limit;          /* bytes it may hold (taken from its parent at creation) */
	uint64_t used;           /* bytes charged now, children's reservations included */
	uint32_t refs;           /* the processes and objects charged to it, and its children */
	struct account *parent;  /* a reference; NULL for the root */
};

/* A new account of `limit` bytes, reserved from parent (NULL: the root, reserving nothing).
 * NULL when parent has not that much left or no memory for the account itself. */
struct account *account_new(struct account *parent, uint64_t limit);
static inline void account_get(struct account *a)
{
	a->refs++;
}
/* At the last reference the account ends: its reservation goes back to its parent. Everything
 * charged to it must have been refunded by then (each charge holds a reference). */
void account_put(struct account *a);

/* Charge bytes to a: 0, or -1 (nothing charged) when a's limit would be passed. */
int account_charge(struct account *a, uint64_t bytes);
/* Give back what account_charge took. */
void account_refund(struct account *a, uint64_t bytes);

/* kalloc / kfree and page_alloc_zeroed / page_free, charged to a (NULL: the kernel's own,
 * charged to nobody). NULL / 0 when a's limit or the machine's memory would be passed. */
void *account_kalloc(struct account *a, size_t size);
void account_kfree(struct account *a, void *obj, size_t size);
uint64_t account_page_alloc(struct account *a);
void account_page_free(struct account *a, uint64_t pa);
/* page_alloc_frame / page_free_run of `pages` contiguous pages for a frame (made for DMA or
 * not: mm.h), all charged to a (NULL: charged to nobody). 0 when a's limit would be passed or
 * no run is free. The pages are not zeroed: the caller zeroes them (page_zero) before anyone
 * else can reach them. */
uint64_t account_pages_alloc(struct account *a, size_t pages, bool dma);
void account_pages_free(struct account *a, uint64_t pa, size_t pages);

#endif
