/* virtio.c: a virtio 1.x device's generic sequence (<tacet/virtio.h>), the same over every
 * transport: reset and status, feature negotiation, queues over DMA rings, notifications, the
 * interrupt status and the configuration space with its generation. The transport's register
 * protocol is dev->transport's (virtio_mmio.c, virtio_pci.c); the split rings virtio_queue.c's.
 * State lives in the caller's struct virtio_device; one thread per device, no locks. */
#include <tacet.h>
#include <tacet/virtio.h>

static void set_status(struct virtio_device *dev, uint32_t bits)
{
	dev->transport->set_status(dev, dev->transport->status(dev) | bits);
}

uint32_t virtio_status(struct virtio_device *dev)
{
	return dev->transport->status(dev);
}

void virtio_close(struct virtio_device *dev)
{
	dev->transport->reset(dev);
}

/* Found, reset, then told what the driver takes: the device must offer VIRTIO_F_VERSION_1 and
 * accept the subset (FEATURES_OK stays set). */
long virtio_negotiate(struct virtio_device *dev, uint64_t features)
{
	const struct virtio_transport *t = dev->transport;

	dev->found = t->status(dev);
	if (t->reset(dev)) {
		virtio_fail(dev, "the device did not finish its reset");
		return -TACET_EBUSY;
	}
	set_status(dev, VIRTIO_STATUS_ACKNOWLEDGE);
	set_status(dev, VIRTIO_STATUS_DRIVER);
	dev->features = t->device_features(dev) & (features | VIRTIO_FEATURE(VIRTIO_F_VERSION_1));
	if (!(dev->features & VIRTIO_FEATURE(VIRTIO_F_VERSION_1))) {
		virtio_fail(dev, "the device does not offer VIRTIO_F_VERSION_1");
		return -TACET_EINVAL;
	}
	t->driver_features(dev, dev->features);
	set_status(dev, VIRTIO_STATUS_FEATURES_OK);
	/* the device may refuse the subset: it then leaves FEATURES_OK clear */
	if (!(t->status(dev) & VIRTIO_STATUS_FEATURES_OK)) {
		virtio_fail(dev, "the device refused the features (FEATURES_OK)");
		return -TACET_EINVAL;
	}
	return 0;
}

long virtio_queue_attach(struct virtio_device *dev, unsigned int index, struct virtq *q)
{
	return dev->transport->queue_attach(dev, index, q);
}

long virtio_queue_new(struct virtio_device *dev, unsigned int index, struct virtq *q,
		      unsigned int size)
{
	struct tacet_dma rings = { 0 };
	long err = size && size <= VIRTQ_SIZE_MAX ? tacet_dma_alloc(virtq_bytes(size), &rings)
						  : -TACET_EINVAL;

	if (!err)
		err = virtq_init(q, size, rings.va, rings.pa,
				 !!(dev->features & VIRTIO_FEATURE(VIRTIO_F_EVENT_IDX)));
	if (!err)
		err = virtio_queue_attach(dev, index, q);
	if (err)
		tacet_dma_free(&rings); /* nothing if none was made */
	return err;
}

void virtio_driver_ok(struct virtio_device *dev)
{
	set_status(dev, VIRTIO_STATUS_DRIVER_OK);
}

void virtio_fail(struct virtio_device *dev, const char *why)
{
	dev->why = why;
	set_status(dev, VIRTIO_STATUS_FAILED);
}

/* One read of a field (8 bytes as two 32-bit halves, low first). */
static uint64_t config_once(volatile uint8_t *cfg, unsigned int size)
{
	switch (size) {
	case 1:
		return mmio_read8(cfg);
	case 2:
		return mmio_read16(cfg);
	case 4:
		return mmio_read32(cfg);
	default:
		return mmio_read32(cfg) | (uint64_t)mmio_read32(cfg + 4) << 32;
	}
}

uint64_t virtio_config_read(struct virtio_device *dev, unsigned int offset, unsigned int size)
{
	volatile uint8_t *cfg = dev->transport->config(dev, offset, size);
	uint32_t gen;
	uint64_t v;

	if (!cfg)
		return 0;
	do {
		gen = dev->transport->generation(dev);
		v = config_once(cfg, size);
	} while (dev->transport->generation(dev) != gen);
	return v;
}

long virtio_config_write(struct virtio_device *dev, unsigned int offset, unsigned int size,
			 uint64_t value)
{
	volatile uint8_t *cfg;

	if ((size != 1 && size != 2 && size != 4 && size != 8) || offset % size)
		return -TACET_EINVAL;
	cfg = dev->transport->config(dev, offset, size);
	if (!cfg)
		return -TACET_EINVAL;
	switch (size) {
	case 1:
		mmio_write8(cfg, (uint8_t)value);
		break;
	case 2:
		mmio_write16(cfg, (uint16_t)value);
		break;
	case 4:
		mmio_write32(cfg, (uint32_t)value);
		break;
	default:
		mmio_write32(cfg, (uint32_t)value);
		mmio_write32(cfg + 4, (uint32_t)(value >> 32));
	}
	return 0;
}
