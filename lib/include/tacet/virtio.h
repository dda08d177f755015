/* tacet/virtio.h: the virtio-mmio transport (virtio 1.x, "Virtio Over MMIO"), modern interface
 * (Version 2) only: QEMU's virt offers it when started with
 * `-global virtio-mmio.force-legacy=false`, which the Makefile and the test runner pass. A
 * transport that says Version 1 (legacy) is refused with a message that says so.
 *
 * A driver (docs/virtio.md):
 *   virtio_open(&dev, regs, VIRTIO_ID_RNG, features)   reset, ACKNOWLEDGE, DRIVER, features,
 *                                                      FEATURES_OK checked
 *   virtio_queue_new(&dev, 0, &q, 64)                  rings from tacet_dma_alloc, queue 0 set up
 *   virtio_driver_ok(&dev)                             the device is live
 *   virtq_add(&q, ...); if (virtq_kick_needed(&q)) virtio_notify(&dev, 0);
 *   virtio_config_read(&dev, off, size), virtio_config_write(&dev, off, size, value)
 *   on its interrupt: virtio_interrupt_ack(&dev), then virtq_get() until NULL, then
 *   tacet_device_ack() (the device's status is cleared before the line is unmasked, or the
 *   level interrupt would come straight back).
 *
 * The register block is the transport's page as tacet_device_open mapped it (dev.regs of the
 * kit's struct tacet_device); registers go through the kit's MMIO accessors. One thread drives
 * a device; nothing here locks.
 */
#ifndef TACET_VIRTIO_H
#define TACET_VIRTIO_H

#include <stdint.h>
#include <tacet/virtio_queue.h>

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

/* InterruptStatus bits. */
#define VIRTIO_INT_USED   1 /* a used ring moved */
#define VIRTIO_INT_CONFIG 2 /* the configuration changed */

struct virtio_device {
	volatile uint8_t *regs;
	uint32_t device_id;
	uint64_t features; /* negotiated: what both offered, VIRTIO_F_VERSION_1 among them */
	const char *why;   /* after a failure: what went wrong, for the driver's message */
	uint32_t found;    /* Status as virtio_open found it, before its reset: 0 for a device
			    * that whoever drove it before reset (init does at a driver's end) */
};

/* Reset the transport at regs and negotiate: the device must be device_id and offer
 * VIRTIO_F_VERSION_1; the driver takes those of `features` the device offers (VERSION_1 is
 * always asked for) and checks that the device accepts them (FEATURES_OK). 0, or -TACET_ENOENT
 * (no such device there), -TACET_EINVAL (legacy interface, or features refused); dev->why says
 * which. The device is left waiting for its queues and virtio_driver_ok. */
long virtio_open(struct virtio_device *dev, volatile void *regs, uint32_t device_id,
		 uint64_t features);

/* Set up queue `index` over q, which virtq_init laid out already. 0, or -TACET_ENOENT (no such
 * queue), -TACET_ERANGE (q larger than the device takes), -TACET_EBUSY (already live). */
long virtio_queue_attach(struct virtio_device *dev, unsigned int index, struct virtq *q);

/* A queue of size entries (a power of two up to VIRTQ_SIZE_MAX) over rings from
 * tacet_dma_alloc, laid out with event idx if it was negotiated, then attached as queue index.
 * The rings stay for the life of the process. 0 or a negative TACET_E* code (nothing is left
 * allocated). */
long virtio_queue_new(struct virtio_device *dev, unsigned int index, struct virtq *q,
		      unsigned int size);

/* Reset the transport at regs (Status 0, then read back until the device says 0: it has
 * forgotten its queues and writes no buffer any more). 0, or -TACET_EBUSY if it never says
 * so. It applies the kit's quiesce description of a transport (lib/virtio.c, TACET_QUIESCE),
 * which every image that uses the kit carries: init applies the same to a dead driver's
 * transports before it frees their DMA quarantine; virtio_close is a driver's own orderly end
 * (after it, its rings and buffers may go). */
long virtio_reset(volatile void *regs);
/* For init's device matching: the virtio device ID a name says (`virtio-rng`:
 * VIRTIO_ID_RNG), 0 if it is none; what sits behind a virtio-mmio transport mapped at regs
 * (size bytes of registers: its DeviceID, 0 if nothing is attached or the registers are not
 * virtio-mmio's). */
unsigned int virtio_id_named(const char *name);
unsigned int virtio_mmio_device_id(volatile void *regs, unsigned long size);
void virtio_close(struct virtio_device *dev);

/* The driver is ready (DRIVER_OK); or it gave up on the device (FAILED). */
void virtio_driver_ok(struct virtio_device *dev);
void virtio_fail(struct virtio_device *dev, const char *why);

/* Tell the device queue index has new buffers (after the memory writes that made them). */
void virtio_notify(struct virtio_device *dev, unsigned int index);

/* On the device's interrupt: read InterruptStatus and clear those bits (InterruptACK).
 * Returns them: 0 means the interrupt was not this device's. */
uint32_t virtio_interrupt_ack(struct virtio_device *dev);

/* A field of the device's configuration space: size 1, 2, 4 or 8 bytes at offset, read again
 * until ConfigGeneration says no change came in between (an 8-byte field takes two reads). */
uint64_t virtio_config_read(struct virtio_device *dev, unsigned int offset, unsigned int size);

/* Write value into a field of the device's configuration space: size 1, 2, 4 or 8 bytes at
 * offset, naturally aligned (an 8-byte field as two 32-bit writes, low half first). Only the
 * fields the device's type lets a driver write take it (virtio-input's select and subsel,
 * virtio-blk's writeback); the device may answer with a configuration-change interrupt. 0, or
 * -TACET_EINVAL (another size, or a field not aligned to its size): nothing is written. */
long virtio_config_write(struct virtio_device *dev, unsigned int offset, unsigned int size,
			 uint64_t value);

#endif
