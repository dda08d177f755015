/* stress_fuzz.c: the stress_fuzz stressor (stress.h): the system call fuzzer (servers/fuzz),
 * STRESS_FUZZ_CALLS calls a round, its random calls kept off the stressor's own slots; at the
 * end its report and its round trip through init, as the fuzz server's. */
#include <tacet.h>
#include "../fuzz/fuzz.h"
#include "stress.h"

#define STRESS_FUZZ_CALLS 1000

static const unsigned long stress_slots[] = {
	STRESS_SLOT_STOP, STRESS_SLOT_DONE, STRESS_SLOT_PAUSE,
};
static unsigned long calls;

static long fuzz_begin(void)
{
	fuzz_keep(stress_slots, sizeof(stress_slots) / sizeof(stress_slots[0]));
	return fuzz_start(tacet_start_arg);
}

static long fuzz_round(void)
{
	fuzz(STRESS_FUZZ_CALLS);
	calls += STRESS_FUZZ_CALLS;
	return STRESS_FUZZ_CALLS;
}

static long fuzz_end(void)
{
	return fuzz_finish(tacet_start_arg, calls);
}

int main(void)
{
	static const struct stressor fuzzer = {
		.what = "fuzz", .unit = "fuzz calls", .start = fuzz_begin, .round = fuzz_round,
		.finish = fuzz_end,
	};

	return stress_run(&fuzzer);
}
