/* powerthief: a hostile server that tries to power the machine off (init must not obey any server's
 * INIT_POWEROFF). Its init.run= entry has no `^`, so init must refuse every request with EPERM and
 * the machine must run on: POWER_TRIES requests through lib's tacet_poweroff (status 0, then 1) and
 * as raw calls (with no word, and with one). init says the first refusal and counts the rest (at
 * most a line a second per server). Prints `powerthief: N requests to power off, each refused with
 * EPERM; the machine still runs: PASS` (reaching the line at all is half of it) and exits with
 * status 0; the tests then check that the shell still answers and that its `poweroff` (the
 * console's entry has `^`) still works.
 */
#include <stdio.h>
#include <tacet.h>
#include <tacet/init_proto.h>

#define POWER_TRIES 100

/* One request, as lib makes it or raw (try % 4 chooses); its answer. */
static long ask(unsigned int try)
{
	struct tacet_msg msg = { .tag = TACET_TAG(INIT_POWEROFF, try % 2), .w = { try % 2 } };
	long err;

	if (try % 4 < 2)
		return tacet_poweroff((int)(try % 2));
	err = tacet_call(TACET_CHILD_INIT, &msg);
	return err ? err : (long)msg.w[0];
}

int main(void)
{
	unsigned int refused = 0;
	long other = 0;

	for (unsigned int i = 0; i < POWER_TRIES; i++) {
		long err = ask(i);

		if (err == -TACET_EPERM)
			refused++;
		else if (!other)
			other = err ? err : 1;
	}
	if (refused == POWER_TRIES)
		printf("powerthief: %u requests to power off, each refused with EPERM; the machine "
		       "still runs: PASS\n", POWER_TRIES);
	else
		printf("powerthief: %u of %u requests to power off refused with EPERM (another "
		       "answer: %ld): FAIL\n", refused, POWER_TRIES, other);
	return refused != POWER_TRIES;
}
