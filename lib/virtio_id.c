/* virtio_id.c: what a virtio device is called, and which one sits behind a virtio-mmio
 * transport (<tacet/virtio.h>): init's device matching (`virtio-rng` in init.run=). A file of its
 * own, so that init links it without the rest of the virtio kit (and its quiesce description).
 * Pure but for the two register reads; no state. */
#include <string.h>
#include <tacet.h>
#include <tacet/virtio.h>

/* virtio device names init.run may use for a virtio-mmio transport, and their device IDs. */
static const struct {
	const char *name;
	unsigned int id;
} virtio_names[] = {
	{ "virtio-net", VIRTIO_ID_NET },
	{ "virtio-blk", VIRTIO_ID_BLK },
	{ "virtio-console", VIRTIO_ID_CONSOLE },
	{ "virtio-rng", VIRTIO_ID_RNG },
	{ "virtio-balloon", VIRTIO_ID_BALLOON },
	{ "virtio-scsi", VIRTIO_ID_SCSI },
	{ "virtio-9p", VIRTIO_ID_9P },
	{ "virtio-gpu", VIRTIO_ID_GPU },
	{ "virtio-input", VIRTIO_ID_INPUT },
	{ "virtio-vsock", VIRTIO_ID_VSOCK },
};

unsigned int virtio_id_named(const char *name)
{
	for (unsigned int i = 0; i < sizeof(virtio_names) / sizeof(virtio_names[0]); i++)
		if (!strcmp(virtio_names[i].name, name))
			return virtio_names[i].id;
	return 0;
}

unsigned int virtio_mmio_device_id(volatile void *regs, unsigned long size)
{
	volatile uint8_t *r = regs;

	if (size < VIRTIO_MMIO_CONFIG || mmio_read32(r + VIRTIO_MMIO_MAGIC_VALUE) != VIRTIO_MMIO_MAGIC)
		return 0;
	return mmio_read32(r + VIRTIO_MMIO_DEVICE_ID);
}
