/* test_virtio_pci.c: host unit tests of the virtio-pci capability walk (lib/virtio_pci_caps.c)
 * against fake configuration spaces: QEMU's layout (with other capabilities between the
 * virtio ones), then hostile ones: a list that loops (through another entry, or onto itself),
 * that points into the standard header, a structure past the end of its BAR (or beyond 4 GiB
 * by overflow, or in a BAR the function lacks), each of the three required structures missing,
 * capabilities too short for their fields or running off the header, misaligned structures and
 * an odd notify multiplier, a reserved BAR number (ignored, the next one used), a second
 * capability of a type (ignored); and 200,000 random spaces, through which the walk must never
 * read outside the header's 256 bytes nor unaligned, and must end. Then the transport
 * (lib/virtio_pci.c under lib/virtio.c) against a fake BAR of memory in QEMU's layout: the
 * negotiation, a queue's set-up (64-bit addresses as halves, no MSI-X vector without a line,
 * vector 0 for queue 0 with one, its notify address), a notification, the ISR, the configuration
 * space's bounds, and a device that puts a
 * queue's notify address past its notify structure or offers no such queue: refused, the queue
 * left disabled. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <tacet/abi.h>
#include <tacet/driver.h>
#include <tacet/virtio.h>
#include <tacet/virtio_queue.h>
#include "host_rng.h"

#define CAP_MSIX 0x11
#define BAR4_SIZE 0x4000

static uint8_t cfg[256];
static unsigned long reads;
static const uint64_t bars[VIRTIO_PCI_MAX_BARS] = { 0, 0x1000, 0, 0, BAR4_SIZE, 0 };

/* The walk's only view of the device: a 4-aligned word below 256, or the test fails. */
static uint32_t cfg_read(void *ctx, unsigned int off)
{
	(void)ctx;
	assert_true(off < sizeof(cfg) && off % 4 == 0);
	reads++;
	return (uint32_t)cfg[off] | (uint32_t)cfg[off + 1] << 8 | (uint32_t)cfg[off + 2] << 16 |
	       (uint32_t)cfg[off + 3] << 24;
}

static void put32(unsigned int off, uint32_t v)
{
	for (unsigned int i = 0; i < 4; i++)
		cfg[off + i] = (uint8_t)(v >> (8 * i));
}

/* An empty header with the Capabilities List bit and the first capability at `first`. */
static void header(unsigned int first)
{
	memset(cfg, 0, sizeof(cfg));
	put32(0x00, 0x10051af4);
	put32(0x04, 1u << 20);
	cfg[0x34] = (uint8_t)first;
}

/* A capability at off: id, next, and for a virtio one its length, type, BAR, offset, length
 * (and the notify multiplier when len >= 20). */
static void cap(unsigned int off, uint8_t id, uint8_t next, uint8_t len, uint8_t type,
		uint8_t bar, uint32_t offset, uint32_t length, uint32_t mult)
{
	cfg[off] = id;
	cfg[off + 1] = next;
	cfg[off + 2] = len;
	cfg[off + 3] = type;
	if (id != VIRTIO_PCI_CAP_VENDOR)
		return;
	cfg[off + 4] = bar;
	put32(off + 8, offset);
	put32(off + 12, length);
	if (len >= 20)
		put32(off + 16, mult);
}

/* QEMU's virtio-pci layout: MSI-X first, then common, ISR, device, notify (in BAR4, 4 KiB
 * each), then the PCI configuration access capability. */
static void qemu_layout(void)
{
	header(0x98);
	cap(0x98, CAP_MSIX, 0x84, 0, 0, 0, 0, 0, 0);
	cap(0x84, VIRTIO_PCI_CAP_VENDOR, 0x70, 20, 5, 0, 0, 0, 0); /* PCI cfg access */
	cap(0x70, VIRTIO_PCI_CAP_VENDOR, 0x60, 20, VIRTIO_PCI_CAP_NOTIFY_CFG, 4, 0x3000, 0x1000, 4);
	cap(0x60, VIRTIO_PCI_CAP_VENDOR, 0x50, 16, VIRTIO_PCI_CAP_DEVICE_CFG, 4, 0x2000, 0x1000, 0);
	cap(0x50, VIRTIO_PCI_CAP_VENDOR, 0x40, 16, VIRTIO_PCI_CAP_ISR_CFG, 4, 0x1000, 0x1000, 0);
	cap(0x40, VIRTIO_PCI_CAP_VENDOR, 0x00, 16, VIRTIO_PCI_CAP_COMMON_CFG, 4, 0, 0x1000, 0);
}

static long walk(struct virtio_pci_layout *l, const char **why)
{
	*why = NULL;
	return virtio_pci_find_caps(cfg_read, NULL, bars, l, why);
}

/* The walk refuses the space with err, and says why in words containing `says`. */
static void refused(long err, const char *says)
{
	struct virtio_pci_layout l;
	const char *why;

	assert_int_equal(walk(&l, &why), err);
	assert_non_null(why);
	assert_non_null(strstr(why, says));
}

static void test_qemu_layout(void **state)
{
	struct virtio_pci_layout l;
	const char *why;

	(void)state;
	qemu_layout();
	assert_int_equal(walk(&l, &why), 0);
	assert_int_equal(l.common.bar, 4);
	assert_int_equal(l.common.offset, 0);
	assert_int_equal(l.common.length, 0x1000);
	assert_int_equal(l.isr.offset, 0x1000);
	assert_int_equal(l.device.offset, 0x2000);
	assert_int_equal(l.notify.offset, 0x3000);
	assert_int_equal(l.notify.length, 0x1000);
	assert_int_equal(l.notify_multiplier, 4);
}

static void test_no_list(void **state)
{
	(void)state;
	qemu_layout();
	put32(0x04, 0); /* status: no Capabilities List */
	refused(-TACET_ENOENT, "no capability list");
}

static void test_loops(void **state)
{
	(void)state;
	qemu_layout();
	cfg[0x40 + 1] = 0x70; /* common -> notify -> device -> ISR -> common ... */
	refused(-TACET_EINVAL, "loops");
	qemu_layout();
	cfg[0x98 + 1] = 0x98; /* the first onto itself */
	refused(-TACET_EINVAL, "loops");
}

static void test_into_header(void **state)
{
	(void)state;
	qemu_layout();
	cfg[0x40 + 1] = 0x10; /* the BARs, read as a capability */
	refused(-TACET_EINVAL, "standard header");
}

static void test_past_bar(void **state)
{
	(void)state;
	qemu_layout();
	put32(0x40 + 8, BAR4_SIZE - 0x800); /* the common configuration's end past BAR4's */
	refused(-TACET_ERANGE, "past the end of its BAR");
	qemu_layout();
	put32(0x70 + 8, 0xfffff000); /* offset + length wraps past 4 GiB */
	refused(-TACET_ERANGE, "past the end of its BAR");
	qemu_layout();
	cfg[0x50 + 4] = 2; /* the ISR in a BAR the function does not have */
	refused(-TACET_ERANGE, "past the end of its BAR");
}

static void test_missing(void **state)
{
	(void)state;
	qemu_layout();
	cfg[0x70 + 3] = 9; /* notify's type made vendor data */
	refused(-TACET_ENOENT, "no notify capability");
	qemu_layout();
	cfg[0x60 + 1] = 0x00; /* the list ends before ISR and common */
	refused(-TACET_ENOENT, "no common configuration capability");
	qemu_layout();
	cfg[0x50 + 3] = 0; /* ISR's type unknown */
	refused(-TACET_ENOENT, "no ISR capability");
}

static void test_short_caps(void **state)
{
	(void)state;
	qemu_layout();
	cfg[0x40 + 2] = 12; /* common: shorter than its fields */
	refused(-TACET_EINVAL, "shorter than its fields");
	qemu_layout();
	cfg[0x70 + 2] = 16; /* notify without its multiplier */
	refused(-TACET_EINVAL, "without its multiplier");
	qemu_layout(); /* the common capability at 0xf8: its 16 bytes run off the header */
	cfg[0x50 + 1] = 0xf8;
	put32(0xf8, (uint32_t)16 << 16 | (uint32_t)VIRTIO_PCI_CAP_COMMON_CFG << 24 |
			    VIRTIO_PCI_CAP_VENDOR);
	cfg[0xfc] = 4;
	refused(-TACET_EINVAL, "past the configuration header");
}

static void test_bad_structures(void **state)
{
	(void)state;
	qemu_layout();
	put32(0x40 + 12, 0x20); /* common smaller than its fields */
	refused(-TACET_EINVAL, "common configuration too small");
	qemu_layout();
	put32(0x40 + 8, 2); /* common misaligned */
	refused(-TACET_EINVAL, "common configuration too small or misaligned");
	qemu_layout();
	put32(0x70 + 16, 3); /* an odd notify multiplier */
	refused(-TACET_EINVAL, "odd multiplier");
	qemu_layout();
	put32(0x50 + 12, 0); /* an empty ISR */
	refused(-TACET_EINVAL, "empty ISR");
}

static void test_reserved_bar_and_duplicates(void **state)
{
	struct virtio_pci_layout l;
	const char *why;

	(void)state;
	qemu_layout();
	/* a notify capability with BAR 7 first: ignored, the one after it used */
	cfg[0x98 + 1] = 0xb0;
	cap(0xb0, VIRTIO_PCI_CAP_VENDOR, 0xc8, 20, VIRTIO_PCI_CAP_NOTIFY_CFG, 7, 0, 0x10, 2);
	/* a second common capability after the first: ignored */
	cfg[0x40 + 1] = 0xe0;
	cap(0xe0, VIRTIO_PCI_CAP_VENDOR, 0, 16, VIRTIO_PCI_CAP_COMMON_CFG, 1, 0, 0x38, 0);
	cap(0xc8, CAP_MSIX, 0x84, 0, 0, 0, 0, 0, 0);
	assert_int_equal(walk(&l, &why), 0);
	assert_int_equal(l.notify.bar, 4);
	assert_int_equal(l.notify.offset, 0x3000);
	assert_int_equal(l.notify_multiplier, 4);
	assert_int_equal(l.common.bar, 4);
}

static void test_random_spaces(void **state)
{
	struct virtio_pci_layout l;
	const char *why;

	(void)state;
	rng_state = 0x9e3779b97f4a7c15ull;
	for (unsigned int n = 0; n < 200000; n++) {
		long r;

		for (unsigned int i = 0; i < sizeof(cfg); i += 8)
			put32(i, (uint32_t)rng_next()), put32(i + 4, (uint32_t)rng_next());
		if (n % 2) { /* half of them a QEMU layout with random bytes written over it */
			qemu_layout();
			for (unsigned int k = rng_below(8); k; k--)
				cfg[0x40 + rng_below(0xc0)] = (uint8_t)rng_next();
		}
		reads = 0;
		r = walk(&l, &why);
		assert_true(reads <= 2 + 64 * 5); /* each word of the list once, five reads each */
		if (r) {
			assert_non_null(why);
			continue;
		}
		assert_true((uint64_t)l.common.offset + l.common.length <= bars[l.common.bar]);
		assert_true((uint64_t)l.notify.offset + l.notify.length <= bars[l.notify.bar]);
		assert_true((uint64_t)l.isr.offset + l.isr.length <= bars[l.isr.bar]);
		assert_true(l.common.length >= VIRTIO_PCI_COMMON_LEN);
	}
}

/* --- the transport against a fake BAR ------------------------------------------------------ */

/* lib/virtio.c's virtio_queue_new allocates through the kit; nothing here calls it. */
long tacet_dma_alloc(unsigned long size, struct tacet_dma *dma)
{
	(void)size;
	(void)dma;
	return -TACET_ENOMEM;
}

void tacet_dma_free(struct tacet_dma *dma)
{
	(void)dma;
}

#define COMMON 0x0000
#define ISR    0x1000
#define DEVCFG 0x2000
#define NOTIFY 0x3000
#define QPA    0x0000001234567000ull /* the rings' bus address, above 4 GiB */

static uint8_t bar[BAR4_SIZE] __attribute__((aligned(4096)));
static uint8_t rings[4096] __attribute__((aligned(4096)));

static uint32_t bar32(unsigned int off)
{
	return (uint32_t)bar[off] | (uint32_t)bar[off + 1] << 8 | (uint32_t)bar[off + 2] << 16 |
	       (uint32_t)bar[off + 3] << 24;
}

static uint16_t bar16(unsigned int off)
{
	return (uint16_t)(bar[off] | bar[off + 1] << 8);
}

static void set16(unsigned int off, uint16_t v)
{
	bar[off] = (uint8_t)v;
	bar[off + 1] = (uint8_t)(v >> 8);
}

/* A device offering EVENT_IDX and VERSION_1 (both feature words read the same memory: bits 0
 * and 29), queue 0 of up to 64 entries at notify offset noff; the driver's device opened. */
static void fake_open(struct virtio_device *dev, uint16_t noff)
{
	struct virtio_pci_mapped m = { .common = bar + COMMON, .isr = bar + ISR,
				       .device = bar + DEVCFG, .notify = bar + NOTIFY,
				       .notify_length = 0x1000, .device_length = 8,
				       .notify_multiplier = 4 };

	memset(bar, 0, sizeof(bar));
	bar[COMMON + VIRTIO_PCI_COMMON_DF] = 0x01;
	bar[COMMON + VIRTIO_PCI_COMMON_DF + 3] = 0x20;
	set16(COMMON + VIRTIO_PCI_COMMON_Q_SIZE, 64);
	set16(COMMON + VIRTIO_PCI_COMMON_Q_NOFF, noff);
	assert_int_equal(virtio_pci_open(dev, &m, VIRTIO_ID_RNG,
					 VIRTIO_FEATURE(VIRTIO_F_EVENT_IDX)), 0);
}

static void test_transport_queue(void **state)
{
	struct virtio_device dev;
	struct virtq q;

	(void)state;
	fake_open(&dev, 3);
	assert_true(dev.features == (VIRTIO_FEATURE(VIRTIO_F_EVENT_IDX) |
				     VIRTIO_FEATURE(VIRTIO_F_VERSION_1)));
	assert_int_equal(bar[COMMON + VIRTIO_PCI_COMMON_STATUS],
			 VIRTIO_STATUS_ACKNOWLEDGE | VIRTIO_STATUS_DRIVER | VIRTIO_STATUS_FEATURES_OK);
	assert_int_equal(bar32(COMMON + VIRTIO_PCI_COMMON_GFSELECT), 1); /* the high word last: */
	assert_int_equal(bar32(COMMON + VIRTIO_PCI_COMMON_GF), 0x1);      /* VERSION_1 alone */
	assert_int_equal(virtq_init(&q, 16, rings, QPA, 1), 0);
	assert_int_equal(virtio_queue_attach(&dev, 0, &q), 0);
	assert_int_equal(bar16(COMMON + VIRTIO_PCI_COMMON_Q_SIZE), 16);
	assert_int_equal(bar16(COMMON + VIRTIO_PCI_COMMON_Q_MSIX), VIRTIO_PCI_NO_VECTOR);
	assert_int_equal(bar32(COMMON + VIRTIO_PCI_COMMON_Q_DESC), (uint32_t)q.desc_pa);
	assert_int_equal(bar32(COMMON + VIRTIO_PCI_COMMON_Q_DESC + 4), 0x12);
	assert_int_equal(bar32(COMMON + VIRTIO_PCI_COMMON_Q_DRIVER), (uint32_t)q.avail_pa);
	assert_int_equal(bar32(COMMON + VIRTIO_PCI_COMMON_Q_DEVICE), (uint32_t)q.used_pa);
	assert_int_equal(bar32(COMMON + VIRTIO_PCI_COMMON_Q_DEVICE + 4), 0x12);
	assert_int_equal(bar16(COMMON + VIRTIO_PCI_COMMON_Q_ENABLE), 1);
	memset(bar + NOTIFY, 0xff, 0x100);
	virtio_notify(&dev, 0);
	assert_int_equal(bar16(NOTIFY + 3 * 4), 0); /* queue 0's index, at 3 x the multiplier */
	assert_int_equal(bar[NOTIFY + 3 * 4 - 1], 0xff);
	assert_int_equal(bar[NOTIFY + 3 * 4 + 2], 0xff);
	/* live already: refused */
	assert_int_equal(virtio_queue_attach(&dev, 0, &q), -TACET_EBUSY);
}

/* With a line for MSI-X vector 0 (the probe's msix_held), queue 0 is given vector 0. */
static void test_transport_msix_vector(void **state)
{
	struct virtio_device dev;
	struct virtq q;

	(void)state;
	fake_open(&dev, 0);
	dev.pci.msix_held = 1;
	assert_int_equal(virtq_init(&q, 16, rings, QPA, 1), 0);
	assert_int_equal(virtio_queue_attach(&dev, 0, &q), 0);
	assert_int_equal(bar16(COMMON + VIRTIO_PCI_COMMON_Q_MSIX), 0);
	assert_int_equal(bar16(COMMON + VIRTIO_PCI_COMMON_MSIX), 0); /* configuration: untouched */
}

/* Queues past 0: each signals the vector the driver chose for it if it holds that vector's
 * line; by default vector 0 (the probe's); one whose vector is not held, none. */
static void test_transport_msix_per_queue(void **state)
{
	struct virtio_device dev;
	struct virtq q;

	(void)state;
	assert_int_equal(virtq_init(&q, 16, rings, QPA, 1), 0);
	fake_open(&dev, 0);
	dev.pci.msix_held = 1u << 0 | 1u << 3;
	assert_int_equal(virtio_queue_attach(&dev, 1, &q), 0); /* not told: the probe's 0 */
	assert_int_equal(bar16(COMMON + VIRTIO_PCI_COMMON_Q_MSIX), 0);
	fake_open(&dev, 0);
	dev.pci.msix_held = 1u << 0 | 1u << 3;
	dev.pci.queue_vector[5] = 3;
	assert_int_equal(virtio_queue_attach(&dev, 5, &q), 0);
	assert_int_equal(bar16(COMMON + VIRTIO_PCI_COMMON_Q_SELECT), 5);
	assert_int_equal(bar16(COMMON + VIRTIO_PCI_COMMON_Q_MSIX), 3);
	fake_open(&dev, 0);
	dev.pci.msix_held = 1u << 0;
	dev.pci.queue_vector[2] = 3; /* not held: no vector, where INTx cannot come either */
	assert_int_equal(virtio_queue_attach(&dev, 2, &q), 0);
	assert_int_equal(bar16(COMMON + VIRTIO_PCI_COMMON_Q_MSIX), VIRTIO_PCI_NO_VECTOR);
	assert_int_equal(bar16(COMMON + VIRTIO_PCI_COMMON_MSIX), 0); /* configuration: untouched */
}

/* virtio_msix_queue and virtio_msix_config: a queue, or the configuration, is given only a
 * vector the driver holds, on virtio-pci with MSI-X; the INTx function (nothing held) and a
 * virtio-mmio device have none to give. */
static void test_msix_queue(void **state)
{
	static const struct virtio_transport other = { .name = "mmio" };
	struct virtio_device dev, mmio = { .transport = &other };
	struct virtq q;

	(void)state;
	fake_open(&dev, 0);
	assert_int_equal(virtio_msix_queue(&dev, 1, 0), -TACET_ENODEV); /* INTx: none held */
	assert_int_equal(virtio_msix_queue(&mmio, 1, 0), -TACET_ENODEV);
	dev.pci.msix_held = 1u << 0 | 1u << 2;
	assert_int_equal(virtio_msix_queue(&dev, 1, 1), -TACET_EINVAL); /* not held */
	assert_int_equal(virtio_msix_queue(&dev, VIRTIO_PCI_MAX_QUEUES, 2), -TACET_EINVAL);
	assert_int_equal(virtio_msix_queue(&dev, 1, VIRTIO_MSIX_MAX), -TACET_ERANGE);
	assert_int_equal(virtio_msix_queue(&dev, 1, 2), 0);
	assert_int_equal(virtq_init(&q, 16, rings, QPA, 1), 0);
	assert_int_equal(virtio_queue_attach(&dev, 1, &q), 0);
	assert_int_equal(bar16(COMMON + VIRTIO_PCI_COMMON_Q_MSIX), 2);
	/* the configuration's vector: only one held */
	assert_int_equal(virtio_msix_config(&dev, 1), -TACET_EINVAL);
	assert_int_equal(bar16(COMMON + VIRTIO_PCI_COMMON_MSIX), 0);
	assert_int_equal(virtio_msix_config(&dev, 2), 0);
	assert_int_equal(bar16(COMMON + VIRTIO_PCI_COMMON_MSIX), 2);
	assert_int_equal(virtio_msix_config(&mmio, 0), -TACET_ENODEV);
}

static void test_transport_hostile_queue(void **state)
{
	struct virtio_device dev;
	struct virtq q;

	(void)state;
	assert_int_equal(virtq_init(&q, 16, rings, QPA, 1), 0);
	fake_open(&dev, 0x400); /* 0x400 x 4 = 0x1000: the index's 2 bytes past the structure */
	assert_int_equal(virtio_queue_attach(&dev, 0, &q), -TACET_ERANGE);
	assert_non_null(strstr(dev.why, "notify offset"));
	assert_int_equal(bar16(COMMON + VIRTIO_PCI_COMMON_Q_ENABLE), 0);
	assert_int_equal(bar32(COMMON + VIRTIO_PCI_COMMON_Q_DESC), 0);
	fake_open(&dev, 0x3ff); /* the last one that fits */
	assert_int_equal(virtio_queue_attach(&dev, 0, &q), 0);
	fake_open(&dev, 0);
	set16(COMMON + VIRTIO_PCI_COMMON_Q_SIZE, 8); /* smaller than the driver's queue */
	assert_int_equal(virtio_queue_attach(&dev, 0, &q), -TACET_ERANGE);
	set16(COMMON + VIRTIO_PCI_COMMON_Q_SIZE, 0); /* no such queue */
	assert_int_equal(virtio_queue_attach(&dev, 0, &q), -TACET_ENOENT);
	assert_int_equal(virtio_queue_attach(&dev, VIRTIO_PCI_MAX_QUEUES, &q), -TACET_ENOENT);
	assert_int_equal(bar16(COMMON + VIRTIO_PCI_COMMON_Q_ENABLE), 0);
}

static void test_transport_isr_and_config(void **state)
{
	struct virtio_device dev;

	(void)state;
	fake_open(&dev, 0);
	bar[ISR] = 0x83; /* a reserved bit set besides both of its bits */
	assert_int_equal(virtio_interrupt_ack(&dev), VIRTIO_INT_USED | VIRTIO_INT_CONFIG);
	for (unsigned int i = 0; i < 8; i++)
		bar[DEVCFG + i] = (uint8_t)(0x10 + i);
	assert_true(virtio_config_read(&dev, 0, 8) == 0x1716151413121110ull);
	assert_int_equal(virtio_config_read(&dev, 6, 2), 0x1716);
	assert_int_equal(virtio_config_read(&dev, 4, 8), 0); /* past its 8 bytes */
	assert_int_equal(virtio_config_write(&dev, 4, 4, 0xaabbccdd), 0);
	assert_int_equal(bar32(DEVCFG + 4), 0xaabbccdd);
	assert_int_equal(virtio_config_write(&dev, 8, 1, 0x55), -TACET_EINVAL);
	assert_int_equal(bar[DEVCFG + 8], 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_qemu_layout),
		cmocka_unit_test(test_no_list),
		cmocka_unit_test(test_loops),
		cmocka_unit_test(test_into_header),
		cmocka_unit_test(test_past_bar),
		cmocka_unit_test(test_missing),
		cmocka_unit_test(test_short_caps),
		cmocka_unit_test(test_bad_structures),
		cmocka_unit_test(test_reserved_bar_and_duplicates),
		cmocka_unit_test(test_random_spaces),
		cmocka_unit_test(test_transport_queue),
		cmocka_unit_test(test_transport_msix_vector),
		cmocka_unit_test(test_transport_msix_per_queue),
		cmocka_unit_test(test_msix_queue),
		cmocka_unit_test(test_transport_hostile_queue),
		cmocka_unit_test(test_transport_isr_and_config),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
