/* stress_procs.c: the stress_procs stressor (stress.h): many processes ending at once. Each
 * round makes a holder process (no thread) and STORM_PROCS processes, each with a thread
 * waiting on a notification (servers/tests/chains.c's chain_code, as a one-level chain), and
 * gives the only capability to each to the holder; once all wait, it deletes its capability to
 * the holder: its cspace goes, and with it every process of the round, in one kernel entry.
 * The last one is watched: its PROCESS_WATCH must have fired when the deletion returns. */
#include <tacet.h>
#include "../tests/chains.h"
#include "stress.h"

#define STORM_PROCS 32 /* at most 127: the holder's slots from 1 */
#define SLOT_HOLDER SLOT_B

static long procs_round(void)
{
	long err = tacet_process_new(SLOT_HOLDER, 0, "holder", 0);

	for (unsigned long i = 0; !err && i < STORM_PROCS; i++) {
		int last = i == STORM_PROCS - 1;

		err = chain_process_new(SLOT_A, 0, last);
		if (!err) /* the last one below the others: it says READY once they all wait */
			err = chain_thread_new(SLOT_A, 0, last ? CHAIN_PRIO - 1 : CHAIN_PRIO);
		if (!err && last)
			err = tacet_process_watch(SLOT_A, SLOT_WATCH, 1);
		if (!err)
			err = tacet_cap_give(SLOT_HOLDER, SLOT_A, 1 + i, TACET_RIGHTS_ALL);
		if (!err)
			err = tacet_cap_delete(SLOT_A);
	}
	if (!err)
		err = tacet_wait(SLOT_READY) == (long)READY_DONE ? 0 : -TACET_EINVAL;
	if (!err)
		err = tacet_cap_delete(SLOT_HOLDER);
	if (!err)
		err = tacet_poll(SLOT_WATCH) == 1 ? 0 : -TACET_EINVAL;
	return err ? err : STORM_PROCS;
}

int main(void)
{
	static const struct stressor procs = {
		.what = "procs", .unit = "processes ended", .start = chains_setup,
		.round = procs_round,
	};

	return stress_run(&procs);
}
