/* giver: the laundering attack (a restarted server's memory): it makes 256-page frames
 * and sends each to keeper (which keeps them), then faults; init restarts it with a fresh
 * instance. Were each instance given a fresh budget, five restarts would take 5 x 7 MiB from
 * the machine, all charged to accounts of dead instances. Each instance is charged to the one
 * account of the server (init's restarts share it: tacet_process_new_same_account), so the
 * frames the first one gave away still count: the next instances find their budget spent
 * (ENOMEM at once), and the free memory init reports at each restart stays the same. */
#include <stdio.h>
#include <tacet.h>
#include <tacet/init_proto.h>

#define SLOT_KEEPER TACET_CHILD_FIRST_FREE
#define SLOT_FRAME  (TACET_CHILD_FIRST_FREE + 1)
#define FRAMES      7

int main(void)
{
	unsigned long given = 0, addr = 8;
	long err = tacet_lookup("keeper", SLOT_KEEPER, 10000);

	while (!err && given < FRAMES) {
		struct tacet_msg msg = { .tag = TACET_TAG_CAP(1, 0, SLOT_FRAME) };

		err = tacet_frame_new(SLOT_FRAME, TACET_FRAME_MAX_PAGES);
		if (!err)
			err = tacet_call(SLOT_KEEPER, &msg);
		if (!err)
			err = tacet_cap_delete(SLOT_FRAME); /* keeper's copy is the only one now */
		if (!err)
			given++;
	}
	printf("giver: gave keeper %lu frames of %d pages (%s)\n", given, TACET_FRAME_MAX_PAGES,
	       err ? tacet_strerror(err) : "all");
	{
		struct tacet_msg done = { .tag = TACET_TAG(2, 0) }; /* this instance is done */

		tacet_call(SLOT_KEEPER, &done);
	}
	__asm__("" : "+r"(addr)); /* then it faults, to be restarted */
	*(volatile unsigned long *)addr = 1;
	return 1;
}
