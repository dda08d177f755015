/* pinkeep: keeps the DMA frame pinhand's instance 0 sent it (still pinned to virtio-rng), and
 * deletes it when instance 1 says the device was quieted and released meanwhile (label 2):
 * nothing allocates then (pinhand waits for the reply, init for ends), so the machine's free
 * memory grows by the frame's pages when they go back to the pool, and not at all when they
 * go into a quarantine nobody will release again (qemu/pinned-frame-outlives-release). */
#include <stdio.h>
#include <tacet.h>
#include <tacet/init_proto.h>

#define SLOT_EP    TACET_CHILD_FIRST_FREE
#define SLOT_FRAME (TACET_CHILD_FIRST_FREE + 1)

static unsigned long free_pages(void)
{
	struct tacet_mem_info m = { 0 };

	tacet_info(TACET_INFO_MEM, 0, &m, sizeof(m));
	return m.free_pages + m.kernel_object_pages; /* (an object's cache page may go too) */
}

/* The frame deleted; the pages it gave back to the pool. */
static long delete_frame(unsigned long *pages)
{
	unsigned long before = free_pages();
	long err = tacet_cap_delete(SLOT_FRAME);

	*pages = free_pages() - before;
	return err;
}

int main(void)
{
	struct tacet_msg msg;
	unsigned long frames = 0, back = 0;
	long err = tacet_endpoint_new(SLOT_EP);

	if (!err)
		err = tacet_publish("pinkeep", SLOT_EP, TACET_RIGHT_WRITE | TACET_RIGHT_GRANT);
	while (!err) {
		if (tacet_recv(SLOT_EP, frames ? 0 : SLOT_FRAME, &msg, NULL) < 0)
			continue;
		frames += TACET_TAG_HAS_CAP(msg.tag);
		if (TACET_TAG_LABEL(msg.tag) == 2)
			break;
		msg = (struct tacet_msg){ .tag = TACET_TAG(0, 0) };
		tacet_reply(&msg);
	}
	if (!err)
		err = frames == 1 ? delete_frame(&back) : -TACET_ENOENT;
	printf("pinkeep: the frame pinned by pinhand's instance 0, deleted after the device's "
	       "release: %lu pages back to the pool (%s): %s\n", back, tacet_strerror(err),
	       !err && back == 4 ? "PASS" : "FAIL");
	msg = (struct tacet_msg){ .tag = TACET_TAG(0, 0) };
	tacet_reply(&msg);
	return !err && back == 4 ? 0 : 1;
}
