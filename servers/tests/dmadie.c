/* dmadie: a driver that dies with its device running (a dead driver's device must not write
 * into pages back in the pool). It drives the virtio-rng device as the rng server does (the
 * kit: tacet_device_open, virtio_open, a queue, a DMA buffer), offers the device the buffer,
 * reads the device's Status, and faults before the device is known to be done. Every DMA
 * frame it had (the queue's rings, the buffer) is pinned to the device (tacet_dma_alloc), so
 * when its process ends their pages do not go back to the pool: they wait in the device's
 * quarantine until init has reset the device (Status 0) and released it. Started with `*1`:
 * the second instance finds the device reset (Status 0 before it opens it) and works. The
 * case checks init's report of the quarantine (at least the pages this instance pinned) and
 * its leak check (everything back in the end). */
#include <stdio.h>
#include <tacet.h>
#include <tacet/driver.h>
#include <tacet/virtio.h>

#define QUEUE_SIZE 8
#define BUF_BYTES  (2 * TACET_PAGE_SIZE)

int main(void)
{
	static struct tacet_device io;
	static struct virtio_device dev;
	static struct virtq queue;
	struct tacet_dma buf;
	struct virtq_buf b;
	unsigned int status;
	unsigned long addr = 8;
	long err = tacet_device_open(&io, VIRTIO_MMIO_COMPATIBLE, 0, 0);

	if (err) {
		printf("dmadie: FAIL: open: %s\n", tacet_strerror(err));
		return 1;
	}
	status = mmio_read32(io.regs + VIRTIO_MMIO_STATUS); /* before the kit resets it */
	err = virtio_open(&dev, io.regs, VIRTIO_ID_RNG, 0);
	if (!err)
		err = virtio_queue_new(&dev, 0, &queue, QUEUE_SIZE);
	if (!err)
		err = tacet_dma_alloc(BUF_BYTES, &buf);
	if (err) {
		printf("dmadie: FAIL: set-up: %s\n", tacet_strerror(err));
		return 1;
	}
	virtio_driver_ok(&dev);
	b = (struct virtq_buf){ .addr = buf.pa, .len = BUF_BYTES };
	if (virtq_add(&queue, &b, 0, 1, &buf) < 0) {
		printf("dmadie: FAIL: offer\n");
		return 1;
	}
	if (virtq_kick_needed(&queue))
		virtio_notify(&dev, 0);
	printf("dmadie: instance %lu: device status %#x at start, buffer of %lu pages at %#lx "
	       "offered (pinned: %s); faulting with the device running\n", tacet_instance(), status,
	       BUF_BYTES / TACET_PAGE_SIZE, buf.pa, buf.pa ? "yes" : "no");
	__asm__("" : "+r"(addr)); /* hidden from gcc, which would make a trap of its own */
	*(volatile unsigned long *)addr = 1;
	return 1;
}
