/* prio_low.c: the busy side of the priority-preemption test (prio_test.h): once prio_signal is
 * up, spins on its hart for SPIN_MS of guest time without a single system call, so that only
 * preemption can give the hart to prio_high in that time, then prints `prio_low: spin done`.
 * No IPC protocol. */
#include <stdio.h>
#include <tacet.h>
#include <tacet/init_proto.h>
#include "prio_test.h"

#define SLOT_DONE TACET_CHILD_FIRST_FREE
#define SPIN_MS 200
#define LOOKUP_TRIES 100000

int main(void)
{
	unsigned long start, x, rounds = 0;
	/* prio_signal publishes "prio.done" first thing: from then on the spin has to cover only
	 * its set-up, however long init took to load it */
	long err = tacet_lookup(PRIO_DONE_NAME, SLOT_DONE, LOOKUP_TRIES);

	if (err) {
		printf("prio_low: lookup " PRIO_DONE_NAME ": FAIL %s\n", tacet_strerror(err));
		return 1;
	}
	start = prio_rdtime();
	x = start;
	while (prio_rdtime() - start < SPIN_MS * PRIO_TICKS_PER_MS) {
		/* work the compiler cannot drop: x is printed below */
		x = x * 2862933555777941757ul + 3037000493ul;
		rounds++;
	}
	printf("prio_low: spin done (%lu rounds, %#lx)\n", rounds, x);
	return 0;
}
