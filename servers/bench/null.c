/* null.c: the bench_null server: the null system call, rdcycle; tacet_null(); rdcycle, less the
 * cost of an empty rdcycle; rdcycle pair. Prints one BENCH line (bench.h) and exits. */
#include <tacet.h>
#include "bench.h"

static unsigned long samples[BENCH_SAMPLES];

int main(void)
{
	unsigned long overhead = bench_overhead();

	for (unsigned long i = 0; i < BENCH_WARMUP + BENCH_SAMPLES; i++) {
		unsigned long c0, c1;

		c0 = bench_rdcycle();
		tacet_null();
		c1 = bench_rdcycle();
		if (i >= BENCH_WARMUP)
			samples[i - BENCH_WARMUP] = c1 - c0 - overhead;
	}
	bench_report("null_syscall", samples, BENCH_SAMPLES);
	return 0;
}
