/* netrefuse.c: with servers/net's files and netdying.c, the net_refusing server: the network
 * device service whose first instance faults mid-stream (netdying.c), whose second refuses
 * the first session it is asked to start (-TACET_EINVAL, as a faulty instance may answer) and
 * faults REFUSER_LIVES_NS later, standing for the end a client's report would bring, and whose
 * later instances are the plain service. A client must not give up on the service at the
 * refusal: the third instance has to be reached. */
#include <stdint.h>
#include <stdio.h>
#include <tacet.h>

#define REFUSER_LIVES_NS 200000000ull

long net_start_refused(void);

static unsigned long ntfn;
static char ender_stack[TACET_PAGE_SIZE] __attribute__((aligned(16)));

/* A thread of its own (the service loop is the main thread's): waits, then faults the process. */
static void ender(void *unused)
{
	unsigned long addr = 8;

	(void)unused;
	tacet_timer_set(ntfn, 1, tacet_time() + tacet_ns_to_ticks(REFUSER_LIVES_NS));
	tacet_wait(ntfn);
	static const char said[] = "net_refusing: instance 1: faulting after its refusal\n";

	tacet_debug_write(said, sizeof(said) - 1); /* stdio is the main thread's */
	__asm__("" : "+r"(addr)); /* hidden from gcc, which would make a trap of its own */
	*(volatile unsigned long *)addr = 1;
}

/* NET_START's hook (servers/net/net.c): an error to answer instead, or 0. */
long net_start_refused(void)
{
	static int refused;
	struct tacet_self self = { 0 };
	long slot;

	if (tacet_instance() != 1 || refused)
		return 0;
	refused = 1;
	slot = tacet_slot_alloc();
	tacet_self(&self);
	if (slot >= 0 && !tacet_ntfn_new((unsigned long)slot)) {
		ntfn = (unsigned long)slot;
		tacet_thread_start(ender, NULL, (unsigned long)ender_stack + sizeof(ender_stack),
				   TACET_SCHED(self.prio, self.hart));
	}
	printf("net_refusing: instance 1: refusing a session's start\n");
	return -TACET_EINVAL;
}
