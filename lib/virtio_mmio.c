/* virtio_mmio.c: the virtio-mmio transport, modern interface (Version 2): its register protocol
 * behind <tacet/virtio.h>'s transport operations (virtio_mmio_transport), its checks at open
 * (virtio_open) and its reset as a quiesce description, which init applies too. State lives in
 * the caller's struct virtio_device (dev->regs: the transport's page); one thread per device,
 * no locks. The generic sequence above it is virtio.c's. */
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

long virtio_reset(volatile void *regs)
{
	const char *why;
	long r = tacet_quiesce_apply(&virtio_mmio_quiesce, regs, VIRTIO_MMIO_CONFIG, &why);

	return r < 0 ? r : 0;
}

static uint32_t mmio_status(struct virtio_device *dev)
{
	return reg_read(dev, VIRTIO_MMIO_STATUS);
}

static void mmio_set_status(struct virtio_device *dev, uint32_t status)
{
	reg_write(dev, VIRTIO_MMIO_STATUS, status);
}

static long mmio_reset(struct virtio_device *dev)
{
	return virtio_reset(dev->regs) ? -TACET_EBUSY : 0;
}

static uint64_t mmio_device_features(struct virtio_device *dev)
{
	uint64_t lo, hi;

	reg_write(dev, VIRTIO_MMIO_DEVICE_FEATURES_SEL, 0);
	lo = reg_read(dev, VIRTIO_MMIO_DEVICE_FEATURES);
	reg_write(dev, VIRTIO_MMIO_DEVICE_FEATURES_SEL, 1);
	hi = reg_read(dev, VIRTIO_MMIO_DEVICE_FEATURES);
	return hi << 32 | lo;
}

static void mmio_driver_features(struct virtio_device *dev, uint64_t features)
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

	*dev = (struct virtio_device){ .transport = &virtio_mmio_transport,
				       .regs = (volatile uint8_t *)regs };
	err = check_transport(dev, device_id);
	return err ? err : virtio_negotiate(dev, features);
}

static long mmio_queue_attach(struct virtio_device *dev, unsigned int index, struct virtq *q)
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

static void mmio_notify(struct virtio_device *dev, unsigned int index)
{
	reg_write(dev, VIRTIO_MMIO_QUEUE_NOTIFY, index);
}

static uint32_t mmio_interrupt_ack(struct virtio_device *dev)
{
	uint32_t status = reg_read(dev, VIRTIO_MMIO_INTERRUPT_STATUS);

	if (status)
		reg_write(dev, VIRTIO_MMIO_INTERRUPT_ACK, status);
	return status;
}

static uint32_t mmio_generation(struct virtio_device *dev)
{
	return reg_read(dev, VIRTIO_MMIO_CONFIG_GENERATION);
}

/* The configuration space runs from VIRTIO_MMIO_CONFIG to the end of the transport's page. */
static volatile uint8_t *mmio_config(struct virtio_device *dev, unsigned int offset,
				     unsigned int size)
{
	unsigned int room = TACET_PAGE_SIZE - VIRTIO_MMIO_CONFIG;

	if (offset > room || size > room - offset)
		return NULL;
	return dev->regs + VIRTIO_MMIO_CONFIG + offset;
}

const struct virtio_transport virtio_mmio_transport = {
	.name = "mmio",
	.status = mmio_status,
	.set_status = mmio_set_status,
	.reset = mmio_reset,
	.device_features = mmio_device_features,
	.driver_features = mmio_driver_features,
	.queue_attach = mmio_queue_attach,
	.notify = mmio_notify,
	.interrupt_ack = mmio_interrupt_ack,
	.generation = mmio_generation,
	.config = mmio_config,
};
