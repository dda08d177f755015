/* tacet/virtio.h: virtio 1.x devices for drivers in user space, over either of two transports
 * with one interface above them: virtio-mmio (modern interface, Version 2 only: QEMU's virt offers
 * it when started with `-global virtio-mmio.force-legacy=false`, which the Makefile and the test
 * runner pass; a transport that says Version 1 is refused with a message that says so) and
 * virtio-pci (the modern interface's vendor capabilities; a transitional device is driven
 * through them too). Which one is the probe's choice (virtio_probe): a virtio-mmio transport if
 * init gave the server one, else a PCI function claimed from the "pci" server.
 *
 * A driver (docs/virtio.md):
 *   virtio_probe(&io, &dev, VIRTIO_ID_RNG, features)   the transport found, opened and its
 *                                                      line bound; reset, ACKNOWLEDGE, DRIVER,
 *                                                      features, FEATURES_OK checked
 *   virtio_queue_new(&dev, 0, &q, 64)                  rings from tacet_dma_alloc, queue 0 set up
 *   virtio_driver_ok(&dev)                             the device is live
 *   virtq_add(&q, ...); if (virtq_kick_needed(&q)) virtio_notify(&dev, 0);
 *   virtio_config_read(&dev, off, size), virtio_config_write(&dev, off, size, value)
 *   on its interrupt: virtio_interrupt_ack(&dev), then virtq_get() until NULL, then
 *   tacet_device_ack() (the device's status is cleared before the line is unmasked, or the
 *   level interrupt would come straight back).
 * virtio_open is the virtio-mmio half of the probe, for a driver that opened the transport's
 * registers itself.
 *
 * Registers go through the kit's MMIO accessors. One thread drives a device; nothing here locks.
 */
#ifndef TACET_VIRTIO_H
#define TACET_VIRTIO_H

#include <stdint.h>
#include <tacet/virtio_queue.h>

struct tacet_device;

/* A transport's compatible string in the device tree. */
#define VIRTIO_MMIO_COMPATIBLE "virtio,mmio"

/* The transport's registers, as byte offsets into its page (virtio 1.x, "MMIO Device Register
 * Layout"): 32 bits wide, little-endian, read and written with mmio_read32/mmio_write32. */
#define VIRTIO_MMIO_MAGIC_VALUE         0x000 /* reads VIRTIO_MMIO_MAGIC */
#define VIRTIO_MMIO_VERSION             0x004 /* VIRTIO_MMIO_VERSION_MODERN or _LEGACY */
#define VIRTIO_MMIO_DEVICE_ID           0x008 /* VIRTIO_ID_*; 0: nothing attached */
#define VIRTIO_MMIO_DEVICE_FEATURES     0x010
#define VIRTIO_MMIO_DEVICE_FEATURES_SEL 0x014
#define VIRTIO_MMIO_DRIVER_FEATURES     0x020
#define VIRTIO_MMIO_DRIVER_FEATURES_SEL 0x024
#define VIRTIO_MMIO_QUEUE_SEL           0x030
#define VIRTIO_MMIO_QUEUE_NUM_MAX       0x034
#define VIRTIO_MMIO_QUEUE_NUM           0x038
#define VIRTIO_MMIO_QUEUE_READY         0x044
#define VIRTIO_MMIO_QUEUE_NOTIFY        0x050
#define VIRTIO_MMIO_INTERRUPT_STATUS    0x060
#define VIRTIO_MMIO_INTERRUPT_ACK       0x064
#define VIRTIO_MMIO_STATUS              0x070
#define VIRTIO_MMIO_QUEUE_DESC_LOW      0x080
#define VIRTIO_MMIO_QUEUE_DESC_HIGH     0x084
#define VIRTIO_MMIO_QUEUE_DRIVER_LOW    0x090
#define VIRTIO_MMIO_QUEUE_DRIVER_HIGH   0x094
#define VIRTIO_MMIO_QUEUE_DEVICE_LOW    0x0a0
#define VIRTIO_MMIO_QUEUE_DEVICE_HIGH   0x0a4
#define VIRTIO_MMIO_CONFIG_GENERATION   0x0fc
#define VIRTIO_MMIO_CONFIG              0x100 /* the device's configuration space */

#define VIRTIO_MMIO_MAGIC          0x74726976u /* "virt", little-endian */
#define VIRTIO_MMIO_VERSION_LEGACY 1 /* refused: see above */
#define VIRTIO_MMIO_VERSION_MODERN 2

/* Device IDs (virtio 1.x, "Device Types"); init matches `virtio-rng` etc. on these. */
#define VIRTIO_ID_NET     1
#define VIRTIO_ID_BLK     2
#define VIRTIO_ID_CONSOLE 3
#define VIRTIO_ID_RNG     4
#define VIRTIO_ID_BALLOON 5
#define VIRTIO_ID_SCSI    8
#define VIRTIO_ID_9P      9
#define VIRTIO_ID_GPU     16
#define VIRTIO_ID_INPUT   18
#define VIRTIO_ID_VSOCK   19

/* Feature bits. */
#define VIRTIO_F_INDIRECT_DESC 28
#define VIRTIO_F_EVENT_IDX     29
#define VIRTIO_F_VERSION_1     32
#define VIRTIO_FEATURE(bit)    (1ull << (bit))

/* The Status register's bits. */
#define VIRTIO_STATUS_ACKNOWLEDGE 1
#define VIRTIO_STATUS_DRIVER      2
#define VIRTIO_STATUS_DRIVER_OK   4
#define VIRTIO_STATUS_FEATURES_OK 8
#define VIRTIO_STATUS_NEEDS_RESET 64
#define VIRTIO_STATUS_FAILED      128

/* Interrupt status bits (virtio-mmio's InterruptStatus, virtio-pci's ISR). */
#define VIRTIO_INT_USED   1 /* a used ring moved */
#define VIRTIO_INT_CONFIG 2 /* the configuration changed */

/* virtio-pci (virtio 1.x, "Virtio Over PCI Bus"): the vendor, the modern device IDs
 * (VIRTIO_PCI_DEVICE_MODERN + a device ID) and the transitional ones (virtio_pci_transitional_id),
 * the vendor capability's types, and the common configuration's fields (byte offsets). */
#define VIRTIO_PCI_VENDOR           0x1af4
#define VIRTIO_PCI_DEVICE_MODERN    0x1040
#define VIRTIO_PCI_CAP_VENDOR       0x09 /* the PCI capability ID of every virtio structure */
#define VIRTIO_PCI_CAP_COMMON_CFG   1
#define VIRTIO_PCI_CAP_NOTIFY_CFG   2
#define VIRTIO_PCI_CAP_ISR_CFG      3
#define VIRTIO_PCI_CAP_DEVICE_CFG   4
#define VIRTIO_PCI_CAP_LEN          16 /* cap_vndr..length; the notify capability has 4 more */
#define VIRTIO_PCI_NOTIFY_CAP_LEN   20
#define VIRTIO_PCI_COMMON_DFSELECT  0x00
#define VIRTIO_PCI_COMMON_DF        0x04
#define VIRTIO_PCI_COMMON_GFSELECT  0x08
#define VIRTIO_PCI_COMMON_GF        0x0c
#define VIRTIO_PCI_COMMON_MSIX      0x10 /* 16 bits: the configuration change's MSI-X vector */
#define VIRTIO_PCI_COMMON_NUMQ      0x12
#define VIRTIO_PCI_COMMON_STATUS    0x14 /* 8 bits */
#define VIRTIO_PCI_COMMON_CFGGEN    0x15 /* 8 bits */
#define VIRTIO_PCI_COMMON_Q_SELECT  0x16 /* 16 bits, as are the queue's fields to Q_NOFF */
#define VIRTIO_PCI_COMMON_Q_SIZE    0x18
#define VIRTIO_PCI_COMMON_Q_MSIX    0x1a
#define VIRTIO_PCI_COMMON_Q_ENABLE  0x1c
#define VIRTIO_PCI_COMMON_Q_NOFF    0x1e
#define VIRTIO_PCI_COMMON_Q_DESC    0x20 /* 64 bits, written as two 32-bit halves, low first */
#define VIRTIO_PCI_COMMON_Q_DRIVER  0x28
#define VIRTIO_PCI_COMMON_Q_DEVICE  0x30
#define VIRTIO_PCI_COMMON_LEN       0x38
#define VIRTIO_PCI_NO_VECTOR        0xffff /* no MSI-X vector: INTx and the ISR */
#define VIRTIO_PCI_MAX_BARS         6
#define VIRTIO_PCI_MAX_QUEUES       16 /* the queues a driver may set up over virtio-pci */
#define VIRTIO_MSIX_MAX             32 /* MSI-X vectors a driver may hold (msix_held's bits) */

/* One virtio structure a vendor capability places: in BAR `bar`, length bytes at offset. */
struct virtio_pci_region {
	uint8_t bar;
	uint32_t offset, length;
};

/* What the capability walk found (virtio_pci_find_caps): the four structures a driver uses (the
 * device's configuration has length 0 if the device has none) and the notify multiplier. */
struct virtio_pci_layout {
	struct virtio_pci_region common, notify, isr, device;
	uint32_t notify_multiplier;
};

/* A transport: how the generic sequence (lib/virtio.c) reaches one kind of device. Each
 * operation is the transport's register protocol only; none fails but those that say. */
struct virtio_device;
struct virtio_transport {
	const char *name; /* "mmio", "pci" */
	uint32_t (*status)(struct virtio_device *dev);
	void (*set_status)(struct virtio_device *dev, uint32_t status); /* the whole register */
	long (*reset)(struct virtio_device *dev); /* 0 or -TACET_EBUSY (it never said 0) */
	uint64_t (*device_features)(struct virtio_device *dev);
	void (*driver_features)(struct virtio_device *dev, uint64_t features);
	long (*queue_attach)(struct virtio_device *dev, unsigned int index, struct virtq *q);
	void (*notify)(struct virtio_device *dev, unsigned int index);
	uint32_t (*interrupt_ack)(struct virtio_device *dev); /* VIRTIO_INT_* bits, cleared */
	uint32_t (*generation)(struct virtio_device *dev);
	/* the device configuration's field at offset, size bytes; NULL if it is not all inside */
	volatile uint8_t *(*config)(struct virtio_device *dev, unsigned int offset, unsigned int size);
};

extern const struct virtio_transport virtio_mmio_transport, virtio_pci_transport;

/* The structures of a virtio-pci function, mapped (virtio_pci_open). */
struct virtio_pci_mapped {
	volatile uint8_t *common, *notify, *isr, *device;
	uint32_t notify_length, device_length, notify_multiplier;
	uint16_t queue_notify_off[VIRTIO_PCI_MAX_QUEUES]; /* each attached queue's */
	/* MSI-X: bit v set if the driver holds a line for vector v (0: none; INTx and the ISR,
	 * every queue VIRTIO_PCI_NO_VECTOR); queue i signals vector queue_vector[i] if that is
	 * held (the probe holds vector 0, which every queue signals unless told otherwise), else
	 * none. Configuration changes signal none unless the driver says (virtio_msix_config). */
	uint32_t msix_held;
	uint8_t queue_vector[VIRTIO_PCI_MAX_QUEUES];
	/* the function, for the "pci" server's calls after the probe (virtio_msix_new) */
	unsigned long pci_ep, pci_device, pci_index;
};

struct virtio_device {
	const struct virtio_transport *transport;
	volatile uint8_t *regs;      /* virtio-mmio: the transport's register page */
	struct virtio_pci_mapped pci; /* virtio-pci: its structures */
	uint32_t device_id;
	uint64_t features; /* negotiated: what both offered, VIRTIO_F_VERSION_1 among them */
	const char *why;   /* after a failure: what went wrong, for the driver's message */
	uint32_t found;    /* Status as virtio_open found it, before its reset: 0 for a device
			    * that whoever drove it before reset (init does at a driver's end) */
};

/* Find the device the driver is for, device_id, and open it (then as virtio_open): the
 * virtio-mmio transport init gave this server with that ID if there is one (tacet_device_open
 * into *io), else the first virtio-pci function of that ID the "pci" server lets it claim
 * (modern device ID, then transitional): its BARs mapped, its capabilities walked through the
 * server's configuration reads (virtio_pci_find_caps), the device reset, then bus mastering
 * and its INTx line (bound, shared, to io's notification), so *io serves the driver's loop
 * either way. 0, or a negative TACET_E* code; dev->why says what was wrong with a device. */
long virtio_probe(struct tacet_device *io, struct virtio_device *dev, uint32_t device_id,
		  uint64_t features);

/* MSI-X vectors past the probe's, for a driver with a queue (or a queue pair) per hart
 * (virtio-pci on a machine with message-signalled interrupts; the probe holds vector 0 and
 * every queue signals it until told otherwise). Each queue's vector is written when the queue
 * is attached, so choose it before (virtio_msix_queue); the device must accept it.
 * virtio_msix_new: vector's line on hart's interrupt file (the "pci" server's PCI_MSI), bound
 * (not shared) to notification ntfn with badge bits; its IRQ handler capability (for
 * tacet_irq_ack) into a new slot, *irq_slot, its number into *line. Held for the process's
 * life (pci masks it and frees its line at the end). 0; -TACET_ENODEV (not virtio-pci, or no
 * MSI-X: the probe's INTx line serves every queue), -TACET_EBUSY (held already),
 * -TACET_ERANGE (beyond VIRTIO_MSIX_MAX, or past the function's MSI-X table), or the error of
 * PCI_MSI or of the binding.
 * virtio_msix_queue: queue index signals vector, which the driver holds. 0; -TACET_ENODEV as
 * above, -TACET_EINVAL (no such queue, or a vector not held), -TACET_ERANGE.
 * virtio_msix_config: configuration changes signal vector, which the driver holds (none
 * otherwise; a device reset forgets it). 0; -TACET_ENODEV, -TACET_EINVAL as above,
 * -TACET_ERANGE (the device refused it). */
long virtio_msix_new(struct virtio_device *dev, unsigned int vector, unsigned int hart,
		     unsigned long ntfn, unsigned long bits, unsigned long *irq_slot,
		     unsigned int *line);
long virtio_msix_queue(struct virtio_device *dev, unsigned int index, unsigned int vector);
long virtio_msix_config(struct virtio_device *dev, unsigned int vector);
/* virtio_msix_new's and virtio_msix_queue's first checks: 0, -TACET_ENODEV, -TACET_ERANGE. */
long virtio_msix_decode(const struct virtio_device *dev, unsigned int vector);

/* The capability walk of a virtio-pci function: `read` gives the configuration space's 32-bit
 * word at a 4-aligned offset below 256; bar_size[i] is BAR i's size (0: none). Follows the
 * list from the capabilities pointer, each offset at most once, and keeps the first vendor
 * capability of each type whose BAR is one of the six. 0 and *layout; or -TACET_ENOENT (no
 * capability list, or no common, notify or ISR structure), -TACET_EINVAL (the list loops or
 * leaves the header's 256 bytes; a capability too short for its type; a structure misaligned,
 * too small, or an odd notify multiplier), -TACET_ERANGE (a structure past the end of its
 * BAR, or in a BAR the function does not have); *why says which. Pure: no state. */
long virtio_pci_find_caps(uint32_t (*read)(void *ctx, unsigned int offset), void *ctx,
			  const uint64_t bar_size[VIRTIO_PCI_MAX_BARS],
			  struct virtio_pci_layout *layout, const char **why);

/* The transitional virtio-pci device ID of a device ID (virtio 1.x, "PCI Device IDs"), 0 if
 * the device has none. */
unsigned int virtio_pci_transitional_id(uint32_t device_id);

/* Open a virtio-pci device whose structures are mapped (m), as virtio_open does a
 * virtio-mmio transport: the same negotiation, the same errors. */
long virtio_pci_open(struct virtio_device *dev, const struct virtio_pci_mapped *m,
		     uint32_t device_id, uint64_t features);

/* Reset the virtio-mmio transport at regs and negotiate: the device must be device_id and offer
 * VIRTIO_F_VERSION_1; the driver takes those of `features` the device offers (VERSION_1 is
 * always asked for) and checks that the device accepts them (FEATURES_OK). 0, or -TACET_ENOENT
 * (no such device there), -TACET_EINVAL (legacy interface, or features refused); dev->why says
 * which. The device is left waiting for its queues and virtio_driver_ok. */
long virtio_open(struct virtio_device *dev, volatile void *regs, uint32_t device_id,
		 uint64_t features);

/* The transport-independent half of virtio_open and virtio_pci_open, over dev->transport: the
 * Status found (dev->found), reset, ACKNOWLEDGE, DRIVER, the features, FEATURES_OK checked. */
long virtio_negotiate(struct virtio_device *dev, uint64_t features);

/* The device's Status register (VIRTIO_STATUS_*: NEEDS_RESET is how a device says it broke). */
uint32_t virtio_status(struct virtio_device *dev);

/* Set up queue `index` over q, which virtq_init laid out already. 0, or -TACET_ENOENT (no such
 * queue), -TACET_ERANGE (q larger than the device takes), -TACET_EBUSY (already live). */
long virtio_queue_attach(struct virtio_device *dev, unsigned int index, struct virtq *q);

/* A queue of size entries (a power of two up to VIRTQ_SIZE_MAX) over rings from
 * tacet_dma_alloc, laid out with event idx if it was negotiated, then attached as queue index.
 * The rings stay for the life of the process. 0 or a negative TACET_E* code (nothing is left
 * allocated). */
long virtio_queue_new(struct virtio_device *dev, unsigned int index, struct virtq *q,
		      unsigned int size);

/* Reset the virtio-mmio transport at regs (Status 0, then read back until the device says 0:
 * it has forgotten its queues and writes no buffer any more). 0, or -TACET_EBUSY if it never
 * says so. It applies the kit's quiesce description of a transport (lib/virtio_mmio.c,
 * TACET_QUIESCE), which every image that uses the kit carries: init applies the same to a dead
 * driver's transports before it frees their DMA quarantine. */
long virtio_reset(volatile void *regs);
/* For init's device matching: the virtio device ID a name says (`virtio-rng`:
 * VIRTIO_ID_RNG), 0 if it is none; what sits behind a virtio-mmio transport mapped at regs
 * (size bytes of registers: its DeviceID, 0 if nothing is attached or the registers are not
 * virtio-mmio's). */
unsigned int virtio_id_named(const char *name);
unsigned int virtio_mmio_device_id(volatile void *regs, unsigned long size);
/* A driver's own orderly end, over either transport: the device reset (after it, its rings
 * and buffers may go). */
void virtio_close(struct virtio_device *dev);

/* The driver is ready (DRIVER_OK); or it gave up on the device (FAILED). */
void virtio_driver_ok(struct virtio_device *dev);
void virtio_fail(struct virtio_device *dev, const char *why);

/* Tell the device queue index has new buffers (after the memory writes that made them). */
static inline void virtio_notify(struct virtio_device *dev, unsigned int index)
{
	dev->transport->notify(dev, index); /* inline: the per-packet paths pay no second call */
}

/* On the device's interrupt: read the transport's interrupt status and clear it (virtio-mmio:
 * InterruptStatus, then those bits to InterruptACK; virtio-pci: the ISR, which its read
 * clears). Returns VIRTIO_INT_* bits: 0 means the interrupt was not this device's. */
static inline uint32_t virtio_interrupt_ack(struct virtio_device *dev)
{
	return dev->transport->interrupt_ack(dev);
}

/* A field of the device's configuration space: size 1, 2, 4 or 8 bytes at offset, read again
 * until the configuration generation says no change came in between (an 8-byte field takes two
 * reads); 0 for a field outside the space. */
uint64_t virtio_config_read(struct virtio_device *dev, unsigned int offset, unsigned int size);

/* Write value into a field of the device's configuration space: size 1, 2, 4 or 8 bytes at
 * offset, naturally aligned (an 8-byte field as two 32-bit writes, low half first). Only the
 * fields the device's type lets a driver write take it (virtio-input's select and subsel,
 * virtio-blk's writeback); the device may answer with a configuration-change interrupt. 0, or
 * -TACET_EINVAL (another size, a field not aligned to its size, or one outside the space):
 * nothing is written. */
long virtio_config_write(struct virtio_device *dev, unsigned int offset, unsigned int size,
			 uint64_t value);

#endif
