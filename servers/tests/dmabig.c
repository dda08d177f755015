/* dmabig: scatter's victim: once scatter holds its pages (its name is published), a
 * 1 MiB frame, as a driver's DMA buffer needs, must still come; then it tells scatter to end. */
#include <stdio.h>
#include <tacet.h>
#include <tacet/init_proto.h>

int main(void)
{
	struct tacet_msg msg = { .tag = TACET_TAG(1, 0) };
	long scatter = tacet_slot_alloc(), frame = tacet_slot_alloc(), err;

	if (scatter < 0 || frame < 0)
		return 1;
	err = tacet_lookup("scatter", (unsigned long)scatter, 60000);
	if (err) {
		printf("dmabig: FAIL: no scatter: %s\n", tacet_strerror(err));
		return 1;
	}
	err = tacet_frame_new((unsigned long)frame, TACET_FRAME_MAX_PAGES);
	printf("dmabig: a %d-page frame beside scatter's pages: %s\n", TACET_FRAME_MAX_PAGES,
	       err ? tacet_strerror(err) : "made: PASS");
	tacet_call((unsigned long)scatter, &msg);
	return err ? 1 : 0;
}
