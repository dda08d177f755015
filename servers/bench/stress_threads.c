/* stress_threads.c: the stress_threads stressor (stress.h): thread create and exit storms.
 * Each round makes STORM_THREADS threads in this process that end at once (EXIT) and one more,
 * below them, that signals the round's end first; the stressor waits for it, so every thread
 * of a round has started and ended (but that last one, which ends during the next round). */
#include <tacet.h>
#include <tacet/init_proto.h>
#include "stress.h"

#define STORM_THREADS 32
#define SLOT_ENDED    TACET_CHILD_FIRST_FREE /* the last thread of a round signals it */
#define THREAD_PRIO   99 /* below the stressor's (init's 100) */
#define LAST_PRIO     98

/* A storm thread: with a0 != 0 (the last one) SIGNAL(a0, 1) first; then EXIT(0). No stack, no
 * memory access. */
_Static_assert(TACET_SYS_EXIT == 2 && TACET_SYS_SIGNAL == 8, "storm_thread's call numbers");
__asm__(".pushsection .text.storm_thread, \"ax\", @progbits\n"
	".globl storm_thread\n"
	"storm_thread:\n"
	"	beqz a0, 1f\n"
	"	li a1, 1\n"
	"	li a7, 8\n"
	"	ecall\n"
	"1:	li a0, 0\n"
	"	li a7, 2\n"
	"	ecall\n"
	".popsection\n");
void storm_thread(void);

static unsigned long hart;

static long storm_round(void)
{
	long err = 0;

	for (unsigned long i = 0; i <= STORM_THREADS && err >= 0; i++) {
		int last = i == STORM_THREADS;

		err = tacet_thread_new(TACET_CHILD_SELF, 0, (unsigned long)storm_thread, 0,
				       last ? SLOT_ENDED : 0,
				       TACET_SCHED(last ? LAST_PRIO : THREAD_PRIO, hart));
	}
	if (err >= 0)
		err = tacet_wait(SLOT_ENDED);
	return err < 0 ? err : STORM_THREADS + 1;
}

static long storm_start(void)
{
	struct tacet_self self;

	tacet_self(&self);
	hart = self.hart;
	return tacet_ntfn_new(SLOT_ENDED);
}

int main(void)
{
	static const struct stressor threads = {
		.what = "threads", .unit = "threads made", .start = storm_start, .round = storm_round,
	};

	return stress_run(&threads);
}
