/* fake_net/tacet.h: <tacet.h> for the host test of lib/net.c (test_net.c): fake_lib's, and the
 * system calls and kit calls lib/net.c makes besides, declared as functions the test defines
 * (its fake kernel and fake ip). First on the test's include path, before fake_lib. */
#ifndef TACET_FAKE_NET_H
#define TACET_FAKE_NET_H

#include "../fake_lib/tacet.h"

struct tacet_dma {
	void *va;
	unsigned long pa;
	unsigned long size;
	unsigned long slot;
};

long tacet_dma_alloc(unsigned long size, struct tacet_dma *dma);
void tacet_dma_free(struct tacet_dma *dma);
long tacet_signal(unsigned long ntfn, unsigned long bits);
long tacet_wait(unsigned long ntfn);
long tacet_timer_set(unsigned long ntfn, unsigned long badge, unsigned long deadline);
uint64_t tacet_time(void);
uint64_t tacet_ns_to_ticks(uint64_t ns);
long tacet_sleep_ns(uint64_t ns);
long tacet_lookup(const char *name, unsigned long dst, unsigned int tries);
long tacet_cap_delete(unsigned long slot);
long tacet_endpoint_watch(unsigned long ep, unsigned long ntfn, unsigned long badge);

#endif
