/* namehog: a hostile server that tries to fill init's name table (were a dead server's names kept,
 * one that published 16 names and exited would fill it for good, and rng, rtc, blk and the console
 * could not publish: no shell). It publishes one endpoint under 16 names, nh.0 to nh.15, all at
 * once (a thread for each name: listed first in init.run=, its 16 calls wait at init before any
 * driver's). Its init.run= entry grants it four, its quota (`namehog=nh.0+nh.1+nh.2+nh.3`): those
 * must be published and the twelve others refused with EPERM, and nh.0 once more refused with
 * EEXIST (published already). Then it exits with status 1, so that init restarts it (`*1`): what an
 * instance published is withdrawn at its end and the names kept for its restart, so the next
 * instance must publish its four again (were nh.0 still the old instance's, it would get EEXIST).
 * Each instance prints `namehog: 4 of 16 names published, 12 refused with EPERM, nh.0 again EEXIST:
 * PASS`, or FAIL with what it got. The tests then check that every driver published (the shell's
 * `random` and `date`).
 */
#include <stdio.h>
#include <tacet.h>
#include <tacet/init_proto.h>

#define HOG_NAMES 16
#define HOG_QUOTA 4 /* init.run= grants it nh.0 to nh.3 */
#define STACK_SIZE 4096

enum { SLOT_EP = TACET_CHILD_FIRST_FREE, SLOT_DONE };

static long answers[HOG_NAMES]; /* each thread's */
static unsigned char stacks[HOG_NAMES][STACK_SIZE] __attribute__((aligned(16)));

/* A thread: publish nh.i, then the bit i on SLOT_DONE. */
static void publish_one(void *arg)
{
	unsigned long i = (unsigned long)arg;
	char name[8];

	snprintf(name, sizeof(name), "nh.%lu", i);
	answers[i] = tacet_publish(name, SLOT_EP, TACET_RIGHT_WRITE);
	tacet_signal(SLOT_DONE, 1ul << i);
}

/* Every name at once, a thread each; 0 once all have answered, or the error. */
static long publish_all(void)
{
	struct tacet_self self;
	unsigned long done = 0;

	tacet_self(&self);
	for (unsigned long i = 0; i < HOG_NAMES; i++) {
		long err = tacet_thread_start(publish_one, (void *)i, (unsigned long)stacks[i + 1],
					      TACET_SCHED(self.prio, self.hart));

		if (err < 0)
			return err;
	}
	while (done != (1ul << HOG_NAMES) - 1) {
		long bits = tacet_wait(SLOT_DONE);

		if (bits < 0)
			return bits;
		done |= (unsigned long)bits;
	}
	return 0;
}

int main(void)
{
	unsigned int published = 0, refused = 0, wrong = 0;
	long err = tacet_endpoint_new(SLOT_EP), again;

	if (!err)
		err = tacet_ntfn_new(SLOT_DONE);
	if (!err)
		err = publish_all();
	if (err) {
		printf("namehog: cannot start: %s: FAIL\n", tacet_strerror(err));
		return 1;
	}
	for (unsigned int i = 0; i < HOG_NAMES; i++) {
		published += !answers[i];
		refused += answers[i] == -TACET_EPERM;
		/* its own names published, the others refused: nothing else */
		wrong += i < HOG_QUOTA ? answers[i] != 0 : answers[i] != -TACET_EPERM;
	}
	again = tacet_publish("nh.0", SLOT_EP, TACET_RIGHT_WRITE);
	if (!wrong && again == -TACET_EEXIST)
		printf("namehog: %u of %u names published, %u refused with EPERM, nh.0 again EEXIST: "
		       "PASS\n", published, HOG_NAMES, refused);
	else
		printf("namehog: %u of %u names published (nh.0: %s), %u refused with EPERM, nh.0 "
		       "again: %s: FAIL\n", published, HOG_NAMES, tacet_strerror(answers[0]), refused,
		       tacet_strerror(again));
	return 1; /* a failure: init restarts it (`*1`) */
}
