/* pinhand: a driver that hands a DMA frame it pinned to another server (pinkeep) and ends
 * (qemu/pinned-frame-outlives-release). Instance 0 opens virtio-rng, makes a 4-page DMA frame
 * (pinned to the device: tacet_dma_alloc), sends pinkeep a copy and ends with status 1; init
 * quiets the device and releases it, then starts instance 1, which tells pinkeep so (label 2)
 * and ends with status 0: pinkeep deletes the frame in that call, after the release. */
#include <stdio.h>
#include <tacet.h>
#include <tacet/driver.h>
#include <tacet/init_proto.h>
#include <tacet/virtio.h>

#define SLOT_KEEP TACET_CHILD_FIRST_FREE
#define DMA_BYTES (4 * TACET_PAGE_SIZE)

static long hand_over(void)
{
	static struct tacet_device io;
	struct tacet_dma buf;
	struct tacet_msg msg;
	long err = tacet_device_open(&io, VIRTIO_MMIO_COMPATIBLE, 0, 0);

	if (!err)
		err = tacet_dma_alloc(DMA_BYTES, &buf);
	if (err)
		return err;
	msg = (struct tacet_msg){ .tag = TACET_TAG_CAP(1, 0, buf.slot) };
	err = tacet_call(SLOT_KEEP, &msg);
	printf("pinhand: instance 0: a %lu-page frame pinned to the device (%s), sent to pinkeep "
	       "(%s); ending\n", DMA_BYTES / TACET_PAGE_SIZE, buf.pa ? "yes" : "no",
	       tacet_strerror(err));
	return err;
}

int main(void)
{
	struct tacet_msg msg = { .tag = TACET_TAG(2, 0) };
	long err = tacet_lookup("pinkeep", SLOT_KEEP, 10000);

	if (!err && tacet_instance() == 0)
		return hand_over() ? 2 : 1; /* 1: init restarts it */
	if (!err)
		err = tacet_call(SLOT_KEEP, &msg);
	printf("pinhand: instance %lu: told pinkeep its driver's device was released (%s)\n",
	       tacet_instance(), tacet_strerror(err));
	return err ? 2 : 0;
}
