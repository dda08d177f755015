/* stress_chains.c: the stress_chains stressor (stress.h): deep chains built and ended, one a
 * round, in turn: STRESS_CHAIN_DEPTH processes each created by the one before, as many each
 * holding the only capability to the next (without threads, then with a thread each), and
 * STRESS_FRAME_DEPTH frames each derived from the one before. The chains are
 * servers/tests/chains.c's (the teardown-chain-* cases build them 3,000 and 10,000 deep); each
 * end is one kernel entry that frees the whole chain. */
#include <tacet.h>
#include "../tests/chains.h"
#include "stress.h"

#define STRESS_CHAIN_DEPTH 16ul
#define STRESS_FRAME_DEPTH 1000ul

static unsigned long rounds;

static long frame_chain(void)
{
	unsigned long last = 0;
	long err = tacet_frame_new(SLOT_FRAME, 1);

	if (!err)
		last = chain_frame_derive(STRESS_FRAME_DEPTH, &err);
	if (!err)
		err = tacet_cap_delete(SLOT_FRAME); /* the root lives on in the last one */
	if (!err)
		err = tacet_cap_delete(last);
	return err;
}

static long chains_round(void)
{
	unsigned long kind = rounds++ % 4;
	int threads = kind == 2;
	long err;

	if (kind == 3)
		err = frame_chain();
	else if (!(err = kind ? chain_cap_build(STRESS_CHAIN_DEPTH, threads)
			      : chain_proc_build(STRESS_CHAIN_DEPTH)))
		err = chain_end(threads || !kind);
	return err ? err : 1;
}

int main(void)
{
	static const struct stressor chains = {
		.what = "chains", .unit = "chains ended", .start = chains_setup,
		.round = chains_round,
	};

	return stress_run(&chains);
}
