/* virtio.c: the virtio-mmio transport, modern interface (Version 2), for drivers in user space
 * (<tacet/virtio.h>). Owns the transport's register protocol: reset and status, feature
 * negotiation, queue registers, notifications, the interrupt status and the configuration
 * space. State lives in the caller's struct virtio_device; one thread per device, no locks.
 * The split rings themselves are virtio_queue.c's. */
#include <tacet.h>
#include <tacet/quiesce.h>
#include <tacet/virtio.h>

/* How a transport is made quiet, by a driver (virtio_reset) and by init at its death: if a
 * device is attached, Status 0, then read back until the device says 0 (the reset is done: it
 * has forgotten its queues and writes no buffer any more). */
TACET_QUIESCE(virtio_mmio_quiesce, VIRTIO_MMIO_COMPATIBLE,
	      TACET_QUIESCE_ONLY_IF(VIRTIO_MMIO_MAGIC_VALUE, 0xffffffffu, VIRTIO_MMIO_MAGIC),
	      TACET_QUIESCE_STOP_IF(VIRTIO_MMIO_DEVICE_ID, 0xffffffffu, 0),
	      TACET_QUIESCE_W32(VIRTIO_MMIO_STATUS, 0),
	      TACET_QUIESCE_POLL(VIRTIO_MMIO_STATUS, 0xffffffffu, 0));

/* The registers are 32 bits wide, little-endian; the kit's accessors carry the fences (a
 * register write after the memory the device reads, a register read before the memory reads
 * that depend on it). */
static uint32_t reg_read(const struct virtio_device *dev, unsigned int off)
{
	return mmio_read32(dev->regs + off);
}

static void reg_write(struct virtio_device *dev, unsigned int off, uint32_t v)
{
	mmio_write32(dev->regs + off, v);
}

static void set_status(struct virtio_device *dev, uint32_t bits)
{
	reg_write(dev, VIRTIO_MMIO_STATUS, reg_read(dev, VIRTIO_MMIO_STATUS) | bits);
}

static long fail(struct virtio_device *dev, long err, const char *why)
{
	virtio_fail(dev, why);
	return err;
}

long virtio_reset(volatile void *regs)
{
	const char *why;
	long r = tacet_quiesce_apply(&virtio_mmio_quiesce, regs, VIRTIO_MMIO_CONFIG, &why);

	return r < 0 ? r : 0;
}

void virtio_close(struct virtio_device *dev)
{
	virtio_reset(dev->regs);
}

static uint64_t device_features(struct virtio_device *dev)
{
	uint64_t lo, hi;

	reg_write(dev, VIRTIO_MMIO_DEVICE_FEATURES_SEL, 0);
	lo = reg_read(dev, VIRTIO_MMIO_DEVICE_FEATURES);
	reg_write(dev, VIRTIO_MMIO_DEVICE_FEATURES_SEL, 1);
	hi = reg_read(dev, VIRTIO_MMIO_DEVICE_FEATURES);
	return hi << 32 | lo;
}

static void driver_features(struct virtio_device *dev, uint64_t features)
{
	reg_write(dev, VIRTIO_MMIO_DRIVER_FEATURES_SEL, 0);
	reg_write(dev, VIRTIO_MMIO_DRIVER_FEATURES, (uint32_t)features);
	reg_write(dev, VIRTIO_MMIO_DRIVER_FEATURES_SEL, 1);
	reg_write(dev, VIRTIO_MMIO_DRIVER_FEATURES, (uint32_t)(features >> 32));
}

/* The device must be what the driver is for, and speak the modern interface. */
static long check_transport(struct virtio_device *dev, uint32_t device_id)
{
	if (reg_read(dev, VIRTIO_MMIO_MAGIC_VALUE) != VIRTIO_MMIO_MAGIC) {
		dev->why = "no virtio-mmio registers (bad magic)";
		return -TACET_ENOENT;
	}
	if (reg_read(dev, VIRTIO_MMIO_VERSION) != VIRTIO_MMIO_VERSION_MODERN) {
		dev->why = reg_read(dev, VIRTIO_MMIO_VERSION) == VIRTIO_MMIO_VERSION_LEGACY
				   ? "legacy virtio-mmio (Version 1): start QEMU with "
				     "-global virtio-mmio.force-legacy=false"
				   : "unknown virtio-mmio version";
		return -TACET_EINVAL;
	}
	dev->device_id = reg_read(dev, VIRTIO_MMIO_DEVICE_ID);
	if (dev->device_id != device_id) {
		dev->why = dev->device_id ? "another kind of virtio device" : "no device attached";
		return -TACET_ENOENT;
	}
	return 0;
}

long virtio_open(struct virtio_device *dev, volatile void *regs, uint32_t device_id,
		 uint64_t features)
{
	long err;

	*dev = (struct virtio_device){ .regs = (volatile uint8_t *)regs };
	err = check_transport(dev, device_id);
	if (err)
		return err;
	dev->found = reg_read(dev, VIRTIO_MMIO_STATUS);
	if (virtio_reset(dev->regs))
		return fail(dev, -TACET_EBUSY, "the device did not finish its reset");
	set_status(dev, VIRTIO_STATUS_ACKNOWLEDGE);
	set_status(dev, VIRTIO_STATUS_DRIVER);
	dev->features = device_features(dev) & (features | VIRTIO_FEATURE(VIRTIO_F_VERSION_1));
	if (!(dev->features & VIRTIO_FEATURE(VIRTIO_F_VERSION_1)))
		return fail(dev, -TACET_EINVAL, "the device does not offer VIRTIO_F_VERSION_1");
	driver_features(dev, dev->features);
	set_status(dev, VIRTIO_STATUS_FEATURES_OK);
	/* the device may refuse the subset: it then leaves FEATURES_OK clear */
	if (!(reg_read(dev, VIRTIO_MMIO_STATUS) & VIRTIO_STATUS_FEATURES_OK))
		return fail(dev, -TACET_EINVAL, "the device refused the features (FEATURES_OK)");
	return 0;
}

long virtio_queue_attach(struct virtio_device *dev, unsigned int index, struct virtq *q)
{
	uint32_t max;

	reg_write(dev, VIRTIO_MMIO_QUEUE_SEL, index);
	if (reg_read(dev, VIRTIO_MMIO_QUEUE_READY))
		return -TACET_EBUSY;
	max = reg_read(dev, VIRTIO_MMIO_QUEUE_NUM_MAX);
	if (!max)
		return -TACET_ENOENT;
	if (q->size > max)
		return -TACET_ERANGE;
	reg_write(dev, VIRTIO_MMIO_QUEUE_NUM, q->size);
	reg_write(dev, VIRTIO_MMIO_QUEUE_DESC_LOW, (uint32_t)q->desc_pa);
	reg_write(dev, VIRTIO_MMIO_QUEUE_DESC_HIGH, (uint32_t)(q->desc_pa >> 32));
	reg_write(dev, VIRTIO_MMIO_QUEUE_DRIVER_LOW, (uint32_t)q->avail_pa);
	reg_write(dev, VIRTIO_MMIO_QUEUE_DRIVER_HIGH, (uint32_t)(q->avail_pa >> 32));
	reg_write(dev, VIRTIO_MMIO_QUEUE_DEVICE_LOW, (uint32_t)q->used_pa);
	reg_write(dev, VIRTIO_MMIO_QUEUE_DEVICE_HIGH, (uint32_t)(q->used_pa >> 32));
	reg_write(dev, VIRTIO_MMIO_QUEUE_READY, 1);
	return 0;
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

void virtio_notify(struct virtio_device *dev, unsigned int index)
{
	reg_write(dev, VIRTIO_MMIO_QUEUE_NOTIFY, index);
}

uint32_t virtio_interrupt_ack(struct virtio_device *dev)
{
	uint32_t status = reg_read(dev, VIRTIO_MMIO_INTERRUPT_STATUS);

	if (status)
		reg_write(dev, VIRTIO_MMIO_INTERRUPT_ACK, status);
	return status;
}

/* One read of a field (8 bytes as two 32-bit halves, low first). */
static uint64_t config_once(struct virtio_device *dev, unsigned int offset, unsigned int size)
{
	volatile uint8_t *cfg = dev->regs + VIRTIO_MMIO_CONFIG + offset;

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
	uint32_t gen;
	uint64_t v;

	do {
		gen = reg_read(dev, VIRTIO_MMIO_CONFIG_GENERATION);
		v = config_once(dev, offset, size);
	} while (reg_read(dev, VIRTIO_MMIO_CONFIG_GENERATION) != gen);
	return v;
}

long virtio_config_write(struct virtio_device *dev, unsigned int offset, unsigned int size,
			 uint64_t value)
{
	volatile uint8_t *cfg = dev->regs + VIRTIO_MMIO_CONFIG + offset;

	if ((size != 1 && size != 2 && size != 4 && size != 8) || offset % size)
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
