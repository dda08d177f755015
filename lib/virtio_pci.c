/* virtio_pci.c: the virtio-pci transport, modern interface (virtio 1.x, "Virtio Over PCI
 * Bus"): its register protocol behind <tacet/virtio.h>'s transport operations
 * (virtio_pci_transport) over the structures the capability walk found and the probe mapped
 * (dev->pci): the common configuration (features, status, queues with 64-bit addresses), the
 * notify structure (each queue's address from its queue_notify_off), the ISR (read to
 * acknowledge) and the device configuration. Interrupts come by MSI-X where the driver holds a
 * line for the queue's vector (queue_vector[i]: vector 0, the probe's, unless the driver chose
 * another with virtio_msix_queue; configuration changes on none unless it chose one,
 * virtio_msix_config), else by INTx (every vector VIRTIO_PCI_NO_VECTOR). State lives in the
 * caller's struct virtio_device; one thread per device at a time, no locks. The generic
 * sequence above it is virtio.c's. */
#include <tacet.h>
#include <tacet/virtio.h>

#define RESET_READS 100000 /* Status read back this often after a reset before giving up */

static volatile uint8_t *common(const struct virtio_device *dev, unsigned int off)
{
	return dev->pci.common + off;
}

static uint32_t pci_status(struct virtio_device *dev)
{
	return mmio_read8(common(dev, VIRTIO_PCI_COMMON_STATUS));
}

static void pci_set_status(struct virtio_device *dev, uint32_t status)
{
	mmio_write8(common(dev, VIRTIO_PCI_COMMON_STATUS), (uint8_t)status);
}

/* Status 0, then read back until the device says 0: it has forgotten its queues. */
static long pci_reset(struct virtio_device *dev)
{
	pci_set_status(dev, 0);
	for (unsigned int i = 0; i < RESET_READS; i++)
		if (!pci_status(dev))
			return 0;
	return -TACET_EBUSY;
}

static uint64_t pci_device_features(struct virtio_device *dev)
{
	uint64_t lo, hi;

	mmio_write32(common(dev, VIRTIO_PCI_COMMON_DFSELECT), 0);
	lo = mmio_read32(common(dev, VIRTIO_PCI_COMMON_DF));
	mmio_write32(common(dev, VIRTIO_PCI_COMMON_DFSELECT), 1);
	hi = mmio_read32(common(dev, VIRTIO_PCI_COMMON_DF));
	return hi << 32 | lo;
}

static void pci_driver_features(struct virtio_device *dev, uint64_t features)
{
	mmio_write32(common(dev, VIRTIO_PCI_COMMON_GFSELECT), 0);
	mmio_write32(common(dev, VIRTIO_PCI_COMMON_GF), (uint32_t)features);
	mmio_write32(common(dev, VIRTIO_PCI_COMMON_GFSELECT), 1);
	mmio_write32(common(dev, VIRTIO_PCI_COMMON_GF), (uint32_t)(features >> 32));
}

static void write64(struct virtio_device *dev, unsigned int off, uint64_t v)
{
	mmio_write32(common(dev, off), (uint32_t)v);
	mmio_write32(common(dev, off + 4), (uint32_t)(v >> 32));
}

/* Queue index's MSI-X vector: queue_vector[index] if the driver holds its line, else none.
 * The device answers VIRTIO_PCI_NO_VECTOR when it cannot take a vector: 0, or -1 after saying
 * so. */
static int queue_vector(struct virtio_device *dev, unsigned int index)
{
	unsigned int v = dev->pci.queue_vector[index];
	uint16_t vector = v < VIRTIO_MSIX_MAX && (dev->pci.msix_held & (1u << v))
				  ? (uint16_t)v : VIRTIO_PCI_NO_VECTOR;

	mmio_write16(common(dev, VIRTIO_PCI_COMMON_Q_MSIX), vector);
	if (mmio_read16(common(dev, VIRTIO_PCI_COMMON_Q_MSIX)) == vector)
		return 0;
	dev->why = "the device refused the queue's MSI-X vector";
	return -1;
}

/* The queue's notify address must lie inside the notify structure (the device says where). */
static long pci_queue_attach(struct virtio_device *dev, unsigned int index, struct virtq *q)
{
	uint64_t at;
	uint16_t max, noff;

	if (index >= VIRTIO_PCI_MAX_QUEUES)
		return -TACET_ENOENT;
	mmio_write16(common(dev, VIRTIO_PCI_COMMON_Q_SELECT), (uint16_t)index);
	if (mmio_read16(common(dev, VIRTIO_PCI_COMMON_Q_ENABLE)))
		return -TACET_EBUSY;
	max = mmio_read16(common(dev, VIRTIO_PCI_COMMON_Q_SIZE));
	if (!max)
		return -TACET_ENOENT;
	if (q->size > max)
		return -TACET_ERANGE;
	noff = mmio_read16(common(dev, VIRTIO_PCI_COMMON_Q_NOFF));
	at = (uint64_t)noff * dev->pci.notify_multiplier;
	if (at + 2 > dev->pci.notify_length) {
		dev->why = "a queue's notify offset past the notify structure";
		return -TACET_ERANGE;
	}
	dev->pci.queue_notify_off[index] = noff;
	mmio_write16(common(dev, VIRTIO_PCI_COMMON_Q_SIZE), (uint16_t)q->size);
	if (queue_vector(dev, index))
		return -TACET_ERANGE;
	write64(dev, VIRTIO_PCI_COMMON_Q_DESC, q->desc_pa);
	write64(dev, VIRTIO_PCI_COMMON_Q_DRIVER, q->avail_pa);
	write64(dev, VIRTIO_PCI_COMMON_Q_DEVICE, q->used_pa);
	mmio_write16(common(dev, VIRTIO_PCI_COMMON_Q_ENABLE), 1);
	return 0;
}

static void pci_notify(struct virtio_device *dev, unsigned int index)
{
	if (index >= VIRTIO_PCI_MAX_QUEUES)
		return;
	mmio_write16(dev->pci.notify + (uint32_t)dev->pci.queue_notify_off[index] *
					 dev->pci.notify_multiplier,
		     (uint16_t)index);
}

/* Reading the ISR clears it (and lowers INTx): bit 0 a queue, bit 1 the configuration, the
 * same bits as virtio-mmio's InterruptStatus. */
static uint32_t pci_interrupt_ack(struct virtio_device *dev)
{
	return mmio_read8(dev->pci.isr) & (VIRTIO_INT_USED | VIRTIO_INT_CONFIG);
}

static uint32_t pci_generation(struct virtio_device *dev)
{
	return mmio_read8(common(dev, VIRTIO_PCI_COMMON_CFGGEN));
}

static volatile uint8_t *pci_config(struct virtio_device *dev, unsigned int offset,
				    unsigned int size)
{
	if (!dev->pci.device || offset > dev->pci.device_length ||
	    size > dev->pci.device_length - offset)
		return NULL;
	return dev->pci.device + offset;
}

long virtio_msix_decode(const struct virtio_device *dev, unsigned int vector)
{
	if (dev->transport != &virtio_pci_transport || !dev->pci.msix_held)
		return -TACET_ENODEV;
	return vector < VIRTIO_MSIX_MAX ? 0 : -TACET_ERANGE;
}

long virtio_msix_queue(struct virtio_device *dev, unsigned int index, unsigned int vector)
{
	long err = virtio_msix_decode(dev, vector);

	if (err)
		return err;
	if (index >= VIRTIO_PCI_MAX_QUEUES || !(dev->pci.msix_held & (1u << vector)))
		return -TACET_EINVAL;
	dev->pci.queue_vector[index] = (uint8_t)vector;
	return 0;
}

long virtio_msix_config(struct virtio_device *dev, unsigned int vector)
{
	long err = virtio_msix_decode(dev, vector);

	if (err)
		return err;
	if (!(dev->pci.msix_held & (1u << vector)))
		return -TACET_EINVAL;
	mmio_write16(common(dev, VIRTIO_PCI_COMMON_MSIX), (uint16_t)vector);
	return mmio_read16(common(dev, VIRTIO_PCI_COMMON_MSIX)) == vector ? 0 : -TACET_ERANGE;
}

const struct virtio_transport virtio_pci_transport = {
	.name = "pci",
	.status = pci_status,
	.set_status = pci_set_status,
	.reset = pci_reset,
	.device_features = pci_device_features,
	.driver_features = pci_driver_features,
	.queue_attach = pci_queue_attach,
	.notify = pci_notify,
	.interrupt_ack = pci_interrupt_ack,
	.generation = pci_generation,
	.config = pci_config,
};

long virtio_pci_open(struct virtio_device *dev, const struct virtio_pci_mapped *m,
		     uint32_t device_id, uint64_t features)
{
	*dev = (struct virtio_device){ .transport = &virtio_pci_transport, .pci = *m,
				       .device_id = device_id };
	return virtio_negotiate(dev, features);
}
