/* watchends: PROCESS_WATCH's places end (qemu/process-watch-ends). It watches its own process
 * with notifications of its own: with init's watch, three fill the four places (a second
 * watch of one notification only changes its badge), a fifth is EBUSY; badge 0 ends one watch,
 * and deleting a notification's only capability (its end) ends another: each time the refused
 * watch then gets the place. Its end signals the watches left; init's leak check sees every
 * record back. */
#include <stdio.h>
#include <tacet.h>
#include <tacet/init_proto.h>

#define NTFNS 4
#define SLOT_N(i) (TACET_CHILD_FIRST_FREE + (i))

static long watch(unsigned int i, unsigned long badge)
{
	return tacet_process_watch(TACET_CHILD_SELF, SLOT_N(i), badge);
}

int main(void)
{
	long err = 0, full, after_zero, none, after_end, refused_again;
	int ok;

	for (unsigned int i = 0; !err && i < NTFNS; i++)
		err = tacet_ntfn_new(SLOT_N(i));
	if (!err)
		err = watch(0, 1);
	if (!err)
		err = watch(0, 2); /* the same place, another badge */
	if (!err)
		err = watch(1, 1);
	if (!err)
		err = watch(2, 1);
	full = watch(3, 1);             /* init's and three: EBUSY */
	after_zero = watch(0, 0) ? -1 : watch(3, 1); /* n0's watch ended: n3 gets its place */
	none = watch(0, 0);             /* no watch of n0 left: still 0 */
	refused_again = watch(0, 1);    /* full again: EBUSY */
	tacet_cap_delete(SLOT_N(1));   /* n1's end ends its watch */
	after_end = watch(0, 1);
	ok = !err && full == -TACET_EBUSY && after_zero == 0 && none == 0 &&
	     refused_again == -TACET_EBUSY && after_end == 0;
	printf("watchends: four places full: %s; after badge 0: %s; badge 0 again: %s; full again: "
	       "%s; after a notification's end: %s: %s\n", tacet_strerror(full),
	       tacet_strerror(after_zero), tacet_strerror(none), tacet_strerror(refused_again),
	       tacet_strerror(after_end), ok ? "PASS" : "FAIL");
	return ok ? 0 : 1;
}
