/* ipc_client.c: the client side of the IPC round-trip benchmarks: rdcycle; tacet_call();
 * rdcycle against bench_ipc_srv in another process (ipc.h), less the read-pair overhead. */
#include <stdio.h>
#include <tacet.h>
#include <tacet/init_proto.h>
#include "bench.h"
#include "ipc.h"

#define SLOT_EP TACET_CHILD_FIRST_FREE
#define LOOKUP_TRIES 10000 /* 1 ms apart: the server may not have published yet */

static unsigned long samples[BENCH_SAMPLES];

int bench_ipc_client(const char *name)
{
	unsigned long overhead = bench_overhead();
	struct tacet_msg msg = { 0 };
	long err = tacet_lookup(BENCH_IPC_NAME, SLOT_EP, LOOKUP_TRIES);

	for (unsigned long i = 0; !err && i < BENCH_WARMUP + BENCH_SAMPLES; i++) {
		unsigned long c0, c1;

		msg.tag = TACET_TAG(BENCH_IPC_PING, 0);
		c0 = bench_rdcycle();
		err = tacet_call(SLOT_EP, &msg);
		c1 = bench_rdcycle();
		if (i >= BENCH_WARMUP)
			samples[i - BENCH_WARMUP] = c1 - c0 - overhead;
	}
	if (err) {
		printf("%s: %s\n", name, tacet_strerror(err));
		return 1;
	}
	bench_report(name, samples, BENCH_SAMPLES);
	msg.tag = TACET_TAG(BENCH_IPC_QUIT, 0);
	return tacet_call(SLOT_EP, &msg) ? 1 : 0;
}
