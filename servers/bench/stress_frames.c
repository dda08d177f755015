/* stress_frames.c: the stress_frames stressor (stress.h): 256-page frames (TACET_FRAME_MAX_PAGES,
 * 1 MiB of zeroed contiguous RAM) made and deleted, one after the other. */
#include <tacet.h>
#include <tacet/init_proto.h>
#include "stress.h"

#define SLOT_FRAME TACET_CHILD_FIRST_FREE

static long frame_round(void)
{
	long err = tacet_frame_new(SLOT_FRAME, TACET_FRAME_MAX_PAGES);

	if (!err)
		err = tacet_cap_delete(SLOT_FRAME);
	return err ? err : 1;
}

int main(void)
{
	static const struct stressor frames = {
		.what = "frames", .unit = "frames made", .round = frame_round,
	};

	return stress_run(&frames);
}
