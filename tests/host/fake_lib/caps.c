/* caps.c: the capability calls a host test of lib or a server makes without caring what they
 * do (in a test's HOST_SRCS_NAME, tests/host): slots handed out from 100 on and never reused,
 * a copy, a deletion, a process watch and an endpoint watch that succeed. One thread. */
#include <tacet.h>

static unsigned long next_slot = 100;

long tacet_slot_alloc(void)
{
	return (long)next_slot++;
}

void tacet_slot_free(unsigned long slot)
{
	(void)slot;
}

long tacet_cap_copy(unsigned long src, unsigned long dst, unsigned long rights,
		    unsigned long badge)
{
	(void)src, (void)dst, (void)rights, (void)badge;
	return 0;
}

long tacet_process_watch(unsigned long process, unsigned long ntfn, unsigned long badge)
{
	(void)process, (void)ntfn, (void)badge;
	return 0;
}

long tacet_cap_delete(unsigned long slot)
{
	(void)slot;
	return 0;
}

long tacet_endpoint_watch(unsigned long ep, unsigned long ntfn, unsigned long badge)
{
	(void)ep, (void)ntfn, (void)badge;
	return 0;
}
