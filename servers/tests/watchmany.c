/* watchmany: many notifications watch one endpoint (qemu/endpoint-watchers-in-steps). It makes
 * WATCHERS notifications, each watching watchee's endpoint with a badge of its own, calls
 * watchee, which answers and ends, then waits on each: every one must get its badge. The
 * kernel tells an ended endpoint's watchers ENDPOINT_WATCH_STEP (16) at a time as the reaper
 * runs (a user decides how many watch, so not all in one hold of the BKL): 100 watchers are
 * seven steps, and a step that lost the rest would leave a wait here for ever. */
#include <stdio.h>
#include <tacet.h>
#include <tacet/init_proto.h>

#define SLOT_SVC   TACET_CHILD_FIRST_FREE
#define SLOT_FIRST (TACET_CHILD_FIRST_FREE + 1)
#define WATCHERS   100

int main(void)
{
	struct tacet_msg msg = { .tag = TACET_TAG(1, 0) };
	unsigned long told = 0;
	long err = tacet_lookup("watchee", SLOT_SVC, 10000);

	for (unsigned long i = 0; !err && i < WATCHERS; i++) {
		err = tacet_ntfn_new(SLOT_FIRST + i);
		if (!err)
			err = tacet_endpoint_watch(SLOT_SVC, SLOT_FIRST + i, 1ul << (i % 60));
	}
	if (!err)
		err = tacet_call(SLOT_SVC, &msg);
	for (unsigned long i = 0; !err && i < WATCHERS; i++) {
		long bits = tacet_wait(SLOT_FIRST + i);

		told += bits == (long)(1ul << (i % 60));
	}
	printf("watchmany: %lu of %d watchers told of the endpoint's end (%s): %s\n", told,
	       WATCHERS, tacet_strerror(err), !err && told == WATCHERS ? "PASS" : "FAIL");
	return !err && told == WATCHERS ? 0 : 1;
}
