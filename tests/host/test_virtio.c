/* test_virtio.c: host unit tests of the split virtqueues (lib/virtio_queue.c) against a fake
 * device that does what a virtio device does with the rings: it takes chains from the
 * available ring (checking their shape), writes into their writable buffers, and puts them in
 * the used ring in an order the test picks, counting the interrupts it would raise and honouring
 * the driver's suppression (VIRTQ_AVAIL_F_NO_INTERRUPT, or used_event with event idx). Physical
 * addresses are host pointers here. Cases: one buffer, chains, completion out of submission
 * order, running out of descriptors, 16-bit index wrap-around under random load (with and
 * without event idx), interrupt and notify suppression, a device that returns nonsense, and bad
 * arguments. The transport (lib/virtio.c) against a fake register page: configuration-space
 * writes of each width land where the device reads them, and a bad one writes nothing. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <tacet/abi.h>
#include <tacet/driver.h>
#include <tacet/virtio.h>
#include <tacet/virtio_queue.h>
#include <tacet/quiesce.h>
#include "host_rng.h"

/* A host program has no .tacet.quiesce section (lib/user.ld's), whose bounds quiesce_mmio.c's
 * tacet_device_quiesce reads; nothing here calls it. */
const struct tacet_quiesce __tacet_quiesce_start[1], __tacet_quiesce_end[1];

#define QSIZE 16

/* --- the fake device ---------------------------------------------------------------------- */

struct taken {
	uint16_t head;
	uint32_t writable; /* bytes the chain lets the device write */
};

struct fake_dev {
	struct virtq_desc *desc;
	struct virtq_avail *avail;
	struct virtq_used *used;
	unsigned int size;
	int event_idx;
	uint16_t last_avail, used_idx;
	struct taken taken[VIRTQ_SIZE_MAX]; /* chains taken and not yet used */
	unsigned int ntaken;
	unsigned long irqs;
	uint8_t fill; /* the byte it writes into the next chain */
};

static void fake_attach(struct fake_dev *d, const struct virtq *q)
{
	*d = (struct fake_dev){ .size = q->size, .event_idx = q->event_idx, .fill = 1 };
	d->desc = (struct virtq_desc *)(uintptr_t)q->desc_pa;
	d->avail = (struct virtq_avail *)(uintptr_t)q->avail_pa;
	d->used = (struct virtq_used *)(uintptr_t)q->used_pa;
}

/* A chain as the spec wants it: readable buffers first, NEXT on all but the last, no loop. */
static uint32_t check_chain(struct fake_dev *d, uint16_t head)
{
	uint32_t writable = 0;
	unsigned int n = 0;
	int seen_write = 0;
	uint16_t i = head;

	for (;;) {
		const struct virtq_desc *x = &d->desc[i];

		assert_true(i < d->size);
		assert_true(++n <= d->size);
		assert_true(x->addr != 0);
		if (x->flags & VIRTQ_DESC_F_WRITE) {
			seen_write = 1;
			writable += x->len;
		} else {
			assert_false(seen_write); /* readable after writable */
		}
		if (!(x->flags & VIRTQ_DESC_F_NEXT))
			return writable;
		i = x->next;
	}
}

/* Take every chain the driver offered since last time. */
static unsigned int fake_take(struct fake_dev *d)
{
	unsigned int n = 0;

	while (d->last_avail != d->avail->idx) {
		uint16_t head = d->avail->ring[d->last_avail & (d->size - 1)];

		assert_true(d->ntaken < d->size);
		d->taken[d->ntaken].head = head;
		d->taken[d->ntaken].writable = check_chain(d, head);
		d->ntaken++;
		d->last_avail++;
		n++;
	}
	if (d->event_idx) /* notify me when the driver offers the next one */
		*(uint16_t *)&d->used->ring[d->size] = d->last_avail;
	return n;
}

/* Finish the k-th taken chain: fill its writable buffers, publish it, maybe interrupt. */
static void fake_complete(struct fake_dev *d, unsigned int k)
{
	struct taken t = d->taken[k];
	uint16_t old = d->used_idx, i = t.head;

	assert_true(k < d->ntaken);
	memmove(&d->taken[k], &d->taken[k + 1], (d->ntaken - k - 1) * sizeof(d->taken[0]));
	d->ntaken--; /* the rest keep the order they were taken in */
	for (;;) {
		struct virtq_desc *x = &d->desc[i];

		if (x->flags & VIRTQ_DESC_F_WRITE)
			memset((void *)(uintptr_t)x->addr, d->fill, x->len);
		if (!(x->flags & VIRTQ_DESC_F_NEXT))
			break;
		i = x->next;
	}
	d->fill++;
	d->used->ring[d->used_idx & (d->size - 1)].id = t.head;
	d->used->ring[d->used_idx & (d->size - 1)].len = t.writable;
	d->used_idx++;
	d->used->idx = d->used_idx;
	if (d->event_idx) {
		uint16_t event = d->avail->ring[d->size];

		d->irqs += (uint16_t)(d->used_idx - event - 1) < (uint16_t)(d->used_idx - old);
	} else {
		d->irqs += !(d->avail->flags & VIRTQ_AVAIL_F_NO_INTERRUPT);
	}
}

/* The taken chain whose head is `head`, by index into taken[]. */
static unsigned int fake_find(const struct fake_dev *d, int head)
{
	for (unsigned int k = 0; k < d->ntaken; k++)
		if (d->taken[k].head == head)
			return k;
	fail_msg("head %d not taken", head);
	return 0;
}

/* --- set-up ------------------------------------------------------------------------------- */

struct fixture {
	struct virtq q;
	struct fake_dev dev;
	uint8_t *ring_mem;
	uint8_t bufs[VIRTQ_SIZE_MAX][64];
};

static struct fixture *fixture_new(unsigned int size, int event_idx)
{
	struct fixture *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	f->ring_mem = aligned_alloc(16, (virtq_bytes(size) + 15) & ~(size_t)15);
	assert_non_null(f->ring_mem);
	memset(f->ring_mem, 0xa5, virtq_bytes(size)); /* virtq_init must clear it */
	assert_int_equal(virtq_init(&f->q, size, f->ring_mem, (uintptr_t)f->ring_mem, event_idx), 0);
	fake_attach(&f->dev, &f->q);
	return f;
}

static void fixture_free(struct fixture *f)
{
	free(f->ring_mem);
	free(f);
}

static struct virtq_buf buf(struct fixture *f, unsigned int i, uint32_t len)
{
	return (struct virtq_buf){ .addr = (uintptr_t)f->bufs[i], .len = len };
}

/* --- cases -------------------------------------------------------------------------------- */

static void test_layout(void **state)
{
	(void)state;
	/* 16 n + (6 + 2 n), rounded up to 4, + 6 + 8 n */
	assert_int_equal(virtq_bytes(128), 3342);
	assert_true(virtq_bytes(VIRTQ_SIZE_MAX) <= 4096);
	assert_int_equal(virtq_bytes(16), 256 + 40 + 134);

	struct fixture *f = fixture_new(16, 0);

	assert_int_equal(f->q.avail_pa - f->q.desc_pa, 256);
	assert_int_equal(f->q.used_pa % 4, 0);
	assert_int_equal(f->q.num_free, 16);
	assert_int_equal(f->q.avail->idx, 0);
	assert_int_equal(f->q.used->idx, 0);
	fixture_free(f);
}

static void test_one_buffer(void **state)
{
	struct fixture *f = fixture_new(QSIZE, 0);
	struct virtq_buf b = buf(f, 0, 32);
	uint32_t len = 0;
	int token = 7;

	(void)state;
	assert_int_equal(virtq_add(&f->q, &b, 0, 1, &token), 0);
	assert_int_equal(f->q.num_free, QSIZE - 1);
	assert_null(virtq_get(&f->q, &len)); /* nothing used yet */
	assert_true(virtq_kick_needed(&f->q));
	assert_int_equal(fake_take(&f->dev), 1);
	fake_complete(&f->dev, 0);
	assert_int_equal(f->dev.irqs, 1);
	assert_ptr_equal(virtq_get(&f->q, &len), &token);
	assert_int_equal(len, 32);
	assert_int_equal(f->bufs[0][0], 1);
	assert_int_equal(f->bufs[0][31], 1);
	assert_int_equal(f->bufs[0][32], 0); /* not past the buffer */
	assert_null(virtq_get(&f->q, &len));
	assert_int_equal(f->q.num_free, QSIZE);
	fixture_free(f);
}

/* Chains of one readable and two writable buffers, several in the queue at once. */
static void test_chains(void **state)
{
	struct fixture *f = fixture_new(QSIZE, 0);
	int tokens[5];

	(void)state;
	for (int c = 0; c < 5; c++) {
		struct virtq_buf b[3] = { buf(f, 3 * c, 16), buf(f, 3 * c + 1, 8),
					  buf(f, 3 * c + 2, 24) };

		assert_true(virtq_add(&f->q, b, 1, 2, &tokens[c]) >= 0);
	}
	assert_int_equal(f->q.num_free, QSIZE - 15);
	assert_int_equal(fake_take(&f->dev), 5);
	for (int c = 0; c < 5; c++)
		assert_int_equal(f->dev.taken[c].writable, 32);
	for (int c = 0; c < 5; c++) {
		uint32_t len;

		fake_complete(&f->dev, 0);
		assert_ptr_equal(virtq_get(&f->q, &len), &tokens[c]);
		assert_int_equal(len, 32);
		assert_int_equal(f->bufs[3 * c][0], 0); /* the readable one is left alone */
		assert_int_equal(f->bufs[3 * c + 1][7], c + 1);
		assert_int_equal(f->bufs[3 * c + 2][23], c + 1);
	}
	assert_int_equal(f->q.num_free, QSIZE);
	fixture_free(f);
}

/* The device finishes in another order than the driver offered: each token comes back with
 * its own chain's length, and every descriptor is free at the end. */
static void test_out_of_order(void **state)
{
	static const int order[8] = { 5, 2, 7, 0, 1, 6, 3, 4 };
	struct fixture *f = fixture_new(QSIZE, 0);
	int tokens[8], heads[8];

	(void)state;
	for (int c = 0; c < 8; c++) {
		struct virtq_buf b[2] = { buf(f, 2 * c, 4), buf(f, 2 * c + 1, (uint32_t)c + 1) };

		heads[c] = virtq_add(&f->q, b, c % 2, 2 - c % 2, &tokens[c]);
		assert_true(heads[c] >= 0);
	}
	fake_take(&f->dev);
	for (int k = 0; k < 8; k++) {
		int c = order[k];
		uint32_t len;

		fake_complete(&f->dev, fake_find(&f->dev, heads[c]));
		assert_ptr_equal(virtq_get(&f->q, &len), &tokens[c]);
		assert_int_equal(len, (c % 2 ? 0 : 4) + (uint32_t)c + 1);
	}
	assert_int_equal(f->q.num_free, QSIZE);
	/* the free list is whole: the queue takes QSIZE one-descriptor chains again */
	for (int c = 0; c < QSIZE; c++) {
		struct virtq_buf b = buf(f, c, 1);

		assert_true(virtq_add(&f->q, &b, 0, 1, &tokens[0]) >= 0);
	}
	assert_int_equal(f->q.num_free, 0);
	fixture_free(f);
}

/* Out of descriptors: -TACET_EBUSY and nothing changes; one chain back makes room. */
static void test_exhaustion(void **state)
{
	struct fixture *f = fixture_new(QSIZE, 0);
	struct virtq_buf b[3] = { buf(f, 0, 8), buf(f, 1, 8), buf(f, 2, 8) };
	int token;
	uint16_t idx;

	(void)state;
	for (int c = 0; c < 4; c++) /* 12 of 16 */
		assert_true(virtq_add(&f->q, b, 0, 3, &token) >= 0);
	assert_true(virtq_add(&f->q, b, 0, 3, &token) >= 0); /* 15 of 16 */
	assert_int_equal(f->q.num_free, 1);
	idx = f->q.avail->idx;
	assert_int_equal(virtq_add(&f->q, b, 1, 1, &token), -TACET_EBUSY);
	assert_int_equal(f->q.num_free, 1);
	assert_int_equal(f->q.avail->idx, idx); /* nothing offered */
	assert_true(virtq_add(&f->q, b, 0, 1, &token) >= 0); /* the last one */
	assert_int_equal(virtq_add(&f->q, b, 0, 1, &token), -TACET_EBUSY);
	assert_int_equal(fake_take(&f->dev), 6);
	fake_complete(&f->dev, 2);
	assert_non_null(virtq_get(&f->q, NULL));
	assert_int_equal(f->q.num_free, 3);
	assert_true(virtq_add(&f->q, b, 1, 2, &token) >= 0);
	assert_int_equal(virtq_add(&f->q, b, 0, 1, &token), -TACET_EBUSY);
	/* a chain longer than the queue can never fit */
	{
		struct virtq_buf many[QSIZE + 1];

		for (int i = 0; i <= QSIZE; i++)
			many[i] = buf(f, i, 1);
		assert_int_equal(virtq_add(&f->q, many, 0, QSIZE + 1, &token), -TACET_EINVAL);
	}
	fixture_free(f);
}

/* What the random load offered: each chain's token is one of these. */
struct record {
	uint32_t writable;
	int live;
};

/* 70,000 chains of random length, completed in random order, some at once: both 16-bit
 * indices wrap; every token comes back exactly once, with its own chain's length. */
static void run_random_load(int event_idx)
{
	static struct record records[1024];
	struct fixture *f = fixture_new(QSIZE, event_idx);
	unsigned long offered = 0, returned = 0, kicks = 0;

	rng_state = 0x5eed0000u + (unsigned int)event_idx;
	memset(records, 0, sizeof(records));
	while (offered < 70000) {
		unsigned int n = 1 + (unsigned int)rng_below(4), nout = (unsigned int)rng_below(n + 1);
		struct record *r = &records[offered % 1024];
		struct virtq_buf b[4];
		uint32_t writable = 0, len;
		struct record *t;

		assert_false(r->live); /* never more than QSIZE outstanding */
		for (unsigned int i = 0; i < n; i++) {
			b[i] = buf(f, (unsigned int)rng_below(VIRTQ_SIZE_MAX), 1 + (uint32_t)rng_below(64));
			writable += i >= nout ? b[i].len : 0;
		}
		if (virtq_add(&f->q, b, nout, n - nout, r) >= 0) {
			*r = (struct record){ .writable = writable, .live = 1 };
			offered++;
			if (rng_below(4))
				continue;
		}
		/* full, or now and then anyway: the device takes everything and finishes a random
		 * few in random order; the driver takes what is used */
		kicks += virtq_kick_needed(&f->q);
		fake_take(&f->dev);
		for (unsigned int k = (unsigned int)rng_below(f->dev.ntaken + 1); k; k--)
			fake_complete(&f->dev, (unsigned int)rng_below(f->dev.ntaken));
		while ((t = virtq_get(&f->q, &len)) != NULL) {
			assert_true(t->live);
			assert_int_equal(len, t->writable);
			t->live = 0;
			returned++;
		}
	}
	fake_take(&f->dev);
	while (f->dev.ntaken)
		fake_complete(&f->dev, 0);
	for (struct record *t; (t = virtq_get(&f->q, NULL)) != NULL; returned++) {
		assert_true(t->live);
		t->live = 0;
	}
	assert_int_equal(returned, offered);
	assert_int_equal(f->q.num_free, QSIZE);
	assert_int_equal(f->q.avail_idx, (uint16_t)offered);
	assert_int_equal(f->q.last_used, (uint16_t)offered);
	assert_true(offered > 65536); /* both indices went round */
	assert_false(f->q.broken);
	/* with interrupts on, the device raised at least one per batch and at most one per chain */
	assert_true(f->dev.irqs > 0 && f->dev.irqs <= offered);
	assert_true(kicks > 0);
	fixture_free(f);
}

static void test_wraparound(void **state)
{
	(void)state;
	run_random_load(0);
}

static void test_wraparound_event_idx(void **state)
{
	(void)state;
	run_random_load(1);
}

/* The lengths the device reports stay with their own chains across the wrap. */
static void test_wraparound_lengths(void **state)
{
	struct fixture *f = fixture_new(4, 1);
	uint32_t tokens[4];

	(void)state;
	for (unsigned long i = 0; i < 66000; i++) {
		struct virtq_buf b[2] = { buf(f, 0, (uint32_t)(i % 50) + 1), buf(f, 1, 3) };
		int head = virtq_add(&f->q, b, 0, 1 + (i & 1), &tokens[i % 4]);
		uint32_t len;

		assert_true(head >= 0);
		tokens[i % 4] = (uint32_t)(i % 50) + 1 + (i & 1 ? 3 : 0);
		fake_take(&f->dev);
		fake_complete(&f->dev, 0);
		assert_ptr_equal(virtq_get(&f->q, &len), &tokens[i % 4]);
		assert_int_equal(len, tokens[i % 4]);
	}
	assert_int_equal(f->dev.irqs, 66000); /* one each, since each was taken at once */
	fixture_free(f);
}

/* No event idx: VIRTQ_AVAIL_F_NO_INTERRUPT silences the device; enabling again reports what
 * came meanwhile. The device's VIRTQ_USED_F_NO_NOTIFY spares the driver its notifies. */
static void test_flags_suppression(void **state)
{
	struct fixture *f = fixture_new(QSIZE, 0);
	struct virtq_buf b = buf(f, 0, 8);
	int token;

	(void)state;
	virtq_irq_disable(&f->q);
	assert_true(virtq_add(&f->q, &b, 0, 1, &token) >= 0);
	assert_true(virtq_kick_needed(&f->q));
	fake_take(&f->dev);
	fake_complete(&f->dev, 0);
	assert_int_equal(f->dev.irqs, 0);
	assert_int_equal(virtq_irq_enable(&f->q), 1); /* a used entry is waiting */
	assert_non_null(virtq_get(&f->q, NULL));
	assert_int_equal(virtq_irq_enable(&f->q), 0);
	assert_true(virtq_add(&f->q, &b, 0, 1, &token) >= 0);
	fake_take(&f->dev);
	fake_complete(&f->dev, 0);
	assert_int_equal(f->dev.irqs, 1);
	assert_non_null(virtq_get(&f->q, NULL));
	f->dev.used->flags = VIRTQ_USED_F_NO_NOTIFY;
	assert_true(virtq_add(&f->q, &b, 0, 1, &token) >= 0);
	assert_false(virtq_kick_needed(&f->q));
	fixture_free(f);
}

/* Event idx: one interrupt for entries the driver has not yet looked at, none while disabled,
 * and a notify only when the device asked for the index the driver passes. */
static void test_event_idx(void **state)
{
	struct fixture *f = fixture_new(QSIZE, 1);
	struct virtq_buf b = buf(f, 0, 8);
	int token;

	(void)state;
	for (int i = 0; i < 3; i++)
		assert_true(virtq_add(&f->q, &b, 0, 1, &token) >= 0);
	assert_true(virtq_kick_needed(&f->q)); /* avail_event 0: the device wants to hear */
	fake_take(&f->dev);                    /* now it wants to hear of index 3 */
	assert_true(virtq_add(&f->q, &b, 0, 1, &token) >= 0);
	assert_true(virtq_kick_needed(&f->q)); /* passes 3 */
	assert_true(virtq_add(&f->q, &b, 0, 1, &token) >= 0);
	assert_false(virtq_kick_needed(&f->q)); /* the device has not taken 3 yet: no news */
	fake_take(&f->dev);
	/* three finished before the driver looks: one interrupt (used_event is 0) */
	for (int i = 0; i < 3; i++)
		fake_complete(&f->dev, 0);
	assert_int_equal(f->dev.irqs, 1);
	for (int i = 0; i < 3; i++)
		assert_non_null(virtq_get(&f->q, NULL));
	fake_complete(&f->dev, 0); /* used_event was moved to 3: this one interrupts */
	assert_int_equal(f->dev.irqs, 2);
	virtq_irq_disable(&f->q);
	assert_non_null(virtq_get(&f->q, NULL));
	fake_complete(&f->dev, 0); /* interrupts off: used_event was left at 4 */
	assert_int_equal(f->dev.irqs, 2);
	assert_int_equal(virtq_irq_enable(&f->q), 1);
	assert_non_null(virtq_get(&f->q, NULL));
	assert_int_equal(f->q.num_free, QSIZE);
	fixture_free(f);
}

/* A device that returns a head it was never given, or one twice, or a runaway chain: the
 * queue stops (broken) instead of handing out a wrong token or corrupting its free list. */
static void test_broken_device(void **state)
{
	struct fixture *f = fixture_new(QSIZE, 0);
	struct virtq_buf b = buf(f, 0, 8);
	int token;

	(void)state;
	assert_int_equal(virtq_add(&f->q, &b, 0, 1, &token), 0);
	f->dev.used->ring[0].id = 5; /* never offered */
	f->dev.used->idx = 1;
	assert_null(virtq_get(&f->q, NULL));
	assert_true(f->q.broken);
	assert_int_equal(virtq_add(&f->q, &b, 0, 1, &token), -TACET_EINVAL);
	fixture_free(f);

	f = fixture_new(QSIZE, 0);
	assert_int_equal(virtq_add(&f->q, &b, 0, 1, &token), 0);
	f->dev.used->ring[0].id = 0;
	f->dev.used->ring[1].id = 0; /* the same head twice */
	f->dev.used->idx = 2;
	assert_ptr_equal(virtq_get(&f->q, NULL), &token);
	assert_null(virtq_get(&f->q, NULL));
	assert_true(f->q.broken);
	fixture_free(f);

	f = fixture_new(QSIZE, 0);
	assert_int_equal(virtq_add(&f->q, &b, 0, 1, &token), 0);
	f->dev.used->ring[0].id = 99; /* out of the table */
	f->dev.used->idx = 1;
	assert_null(virtq_get(&f->q, NULL));
	assert_true(f->q.broken);
	fixture_free(f);
}

static void test_bad_arguments(void **state)
{
	static uint8_t mem[4096] __attribute__((aligned(16)));
	struct virtq q;
	struct virtq_buf b = { .addr = 0x1000, .len = 1 };
	int token;

	(void)state;
	assert_int_equal(virtq_init(&q, 0, mem, 0x1000, 0), -TACET_EINVAL);
	assert_int_equal(virtq_init(&q, 12, mem, 0x1000, 0), -TACET_EINVAL);
	assert_int_equal(virtq_init(&q, 2 * VIRTQ_SIZE_MAX, mem, 0x1000, 0), -TACET_EINVAL);
	assert_int_equal(virtq_init(&q, 8, mem + 8, 0x1008, 0), -TACET_EINVAL);
	assert_int_equal(virtq_init(&q, 8, mem, 0x1008, 0), -TACET_EINVAL);
	assert_int_equal(virtq_init(&q, 8, mem, 0x1000, 0), 0);
	assert_int_equal(virtq_add(&q, &b, 0, 0, &token), -TACET_EINVAL);
	assert_int_equal(virtq_add(&q, &b, 0, 1, NULL), -TACET_EINVAL);
	assert_int_equal(q.num_free, 8);
	assert_int_equal(q.avail->idx, 0);
}

/* --- the transport: a fake register page ---------------------------------------------------
 * lib/virtio.c's queue set-up takes DMA memory; these tests make none. */
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

static uint8_t regs[VIRTIO_MMIO_CONFIG + 64] __attribute__((aligned(4096)));

static uint64_t config_le(unsigned int offset, unsigned int size)
{
	uint64_t v = 0;

	for (unsigned int i = 0; i < size; i++)
		v |= (uint64_t)regs[VIRTIO_MMIO_CONFIG + offset + i] << (8 * i);
	return v;
}

static void test_config_write(void **state)
{
	struct virtio_device dev = { .transport = &virtio_mmio_transport, .regs = regs };

	(void)state;
	memset(regs, 0, sizeof(regs));
	assert_int_equal(virtio_config_write(&dev, 0, 1, 0x1ab), 0);
	assert_int_equal(virtio_config_write(&dev, 2, 2, 0x12345), 0);
	assert_int_equal(virtio_config_write(&dev, 4, 4, 0xdeadbeefcafe), 0);
	assert_int_equal(virtio_config_write(&dev, 8, 8, 0x0123456789abcdefull), 0);
	assert_int_equal(config_le(0, 2), 0xab); /* one byte, its neighbour untouched */
	assert_int_equal(config_le(2, 2), 0x2345);
	assert_int_equal(config_le(4, 4), 0xbeefcafe);
	assert_int_equal(config_le(8, 8), 0x0123456789abcdefull); /* little-endian, low half first */
	assert_int_equal(virtio_config_read(&dev, 8, 8), 0x0123456789abcdefull);
	assert_int_equal(virtio_config_read(&dev, 2, 2), 0x2345);
	for (unsigned int i = 0; i < VIRTIO_MMIO_CONFIG; i++)
		assert_int_equal(regs[i], 0); /* no register outside the configuration space */
}

static void test_config_write_bad(void **state)
{
	static const unsigned int bad[][2] = { { 0, 0 }, { 0, 3 }, { 0, 16 }, { 1, 2 }, { 2, 4 },
					       { 4, 8 }, { 6, 4 } };
	struct virtio_device dev = { .transport = &virtio_mmio_transport, .regs = regs };

	(void)state;
	memset(regs, 0, sizeof(regs));
	for (unsigned int i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(virtio_config_write(&dev, bad[i][0], bad[i][1], ~0ull),
				 -TACET_EINVAL);
	for (unsigned int i = 0; i < sizeof(regs); i++)
		assert_int_equal(regs[i], 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layout),
		cmocka_unit_test(test_one_buffer),
		cmocka_unit_test(test_chains),
		cmocka_unit_test(test_out_of_order),
		cmocka_unit_test(test_exhaustion),
		cmocka_unit_test(test_wraparound),
		cmocka_unit_test(test_wraparound_event_idx),
		cmocka_unit_test(test_wraparound_lengths),
		cmocka_unit_test(test_flags_suppression),
		cmocka_unit_test(test_event_idx),
		cmocka_unit_test(test_broken_device),
		cmocka_unit_test(test_bad_arguments),
		cmocka_unit_test(test_config_write),
		cmocka_unit_test(test_config_write_bad),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
