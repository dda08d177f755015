/* scale_ipc.c: the bench_ipc_scale server: the IPC round trip (as ipc_call_reply_same_hart:
 * rdcycle; tacet_call(); rdcycle, an empty message) with 1, 4, 16 and 64 server processes on
 * its hart (nothing on the path may walk all processes or threads). Each server is a
 * child of its own (scale.h, SCALE_SERVE: RECV, then REPLY_RECV for ever on its own endpoint)
 * at this thread's priority; the calls go to the first one made, the others sleep in RECV.
 * Reports scale_ipc_N for each N. Start it with ^ (it powers off): ^bench_ipc_scale@1. */
#include <stdio.h>
#include <tacet.h>
#include <tacet/init_proto.h>
#include "bench.h"
#include "scale.h"

enum scale_ipc_slot {
	SLOT_EP = TACET_CHILD_FIRST_FREE, /* the first server's endpoint: the calls go here */
	SLOT_OTHER_EP,                    /* another server's, until its child holds it */
	SLOT_CHILD,
	SLOT_CODE,
	SLOT_KEEPER,
	SLOT_SPARE,
};

#define FILL_VA  0x0000002100000000ul
#define PRIO     100 /* init's default: the servers' as bench_ipc_srv's */

static const unsigned long points[] = { 1, 4, 16, 64 };
static unsigned long samples[BENCH_SAMPLES];

/* One more server process; its endpoint in SLOT_EP for the first, else given away. */
static long server_new(unsigned int hart, int first)
{
	unsigned long ep = first ? SLOT_EP : SLOT_OTHER_EP;
	long err = tacet_endpoint_new(ep);

	if (!err)
		err = scale_child_new(SLOT_CHILD, ep, TACET_RIGHT_READ, SCALE_SERVE, PRIO, hart);
	if (!err)
		err = scale_keep(SLOT_CHILD);
	if (!err && !first)
		err = tacet_cap_delete(ep);
	return err;
}

/* One round trip: the calls go to the first server. */
static long call_once(unsigned long *took)
{
	struct tacet_msg msg = { .tag = TACET_TAG(1, 0) };
	unsigned long c0 = bench_rdcycle();
	long err = tacet_call(SLOT_EP, &msg);

	*took = bench_rdcycle() - c0;
	return err;
}

int main(void)
{
	unsigned long overhead = bench_overhead(), servers = 0;
	struct tacet_self self;
	long err;

	tacet_self(&self);
	err = scale_setup(SLOT_CODE, SLOT_KEEPER, SLOT_SPARE, FILL_VA);
	for (unsigned int p = 0; !err && p < sizeof(points) / sizeof(points[0]); p++) {
		char name[24];

		while (!err && servers < points[p])
			err = server_new((unsigned int)self.hart, servers++ == 0);
		if (!err) /* the first server too: it waits in RECV between two calls */
			err = scale_settle(servers);
		snprintf(name, sizeof(name), "scale_ipc_%lu", points[p]);
		if (!err)
			err = bench_measure(name, call_once, overhead, samples);
	}
	if (err) {
		printf("bench_ipc_scale: %s (%lu servers)\n", tacet_strerror(err), servers);
		return 1;
	}
	bench_power_off();
	return 0;
}
