/* virtio_queue.c: split virtqueues, the driver's side (<tacet/virtio_queue.h> says what and
 * how). Owns nothing global: everything is in the struct virtq and the memory it lays out.
 * One thread per queue, no locks. The device writes the used ring at any time, so every read
 * of it goes through a volatile access after the right barrier. */
#include <tacet/abi.h>
#include <tacet/virtio_queue.h>

static uint16_t read16(const uint16_t *p)
{
	return *(const volatile uint16_t *)p;
}

static void write16(uint16_t *p, uint16_t v)
{
	*(volatile uint16_t *)p = v;
}

static size_t avail_bytes(unsigned int size)
{
	return 4 + 2 * (size_t)size + 2; /* flags, idx, ring, used_event */
}

size_t virtq_bytes(unsigned int size)
{
	size_t used_at = (16 * (size_t)size + avail_bytes(size) + 3) & ~(size_t)3;

	return used_at + 4 + 8 * (size_t)size + 2; /* flags, idx, ring, avail_event */
}

/* The event idx words after the rings: the driver's used_event, the device's avail_event. */
static uint16_t *used_event(struct virtq *q)
{
	return &q->avail->ring[q->size];
}

static const uint16_t *avail_event(const struct virtq *q)
{
	return (const uint16_t *)&q->used->ring[q->size];
}

int virtq_init(struct virtq *q, unsigned int size, void *mem, uint64_t pa, int event_idx)
{
	size_t used_at = (16 * (size_t)size + avail_bytes(size) + 3) & ~(size_t)3;
	uint8_t *base = mem;

	if (!size || size > VIRTQ_SIZE_MAX || (size & (size - 1)) || ((uintptr_t)mem & 15) ||
	    (pa & 15))
		return -TACET_EINVAL;
	*q = (struct virtq){ .size = size, .num_free = (uint16_t)size, .event_idx = event_idx != 0 };
	for (size_t i = 0; i < virtq_bytes(size); i++)
		base[i] = 0;
	q->desc = (struct virtq_desc *)base;
	q->avail = (struct virtq_avail *)(base + 16 * size);
	q->used = (struct virtq_used *)(base + used_at);
	q->desc_pa = pa;
	q->avail_pa = pa + 16 * size;
	q->used_pa = pa + used_at;
	for (unsigned int i = 0; i < size; i++)
		q->desc[i].next = (uint16_t)(i + 1 < size ? i + 1 : 0);
	return 0;
}

int virtq_add(struct virtq *q, const struct virtq_buf *bufs, unsigned int nout, unsigned int nin,
	      void *token)
{
	unsigned int n = nout + nin;
	uint16_t head = q->free_head, last = head, i = head;

	if (!n || !token || q->broken || n > q->size)
		return -TACET_EINVAL;
	if (n > q->num_free)
		return -TACET_EBUSY;
	for (unsigned int k = 0; k < n; k++) {
		struct virtq_desc *d = &q->desc[i];

		d->addr = bufs[k].addr;
		d->len = bufs[k].len;
		d->flags = (uint16_t)((k >= nout ? VIRTQ_DESC_F_WRITE : 0) |
				      (k + 1 < n ? VIRTQ_DESC_F_NEXT : 0));
		last = i;
		i = d->next; /* the free list's next, which is also the chain's */
	}
	q->free_head = q->desc[last].next;
	q->num_free = (uint16_t)(q->num_free - n);
	q->tokens[head] = token;
	q->avail->ring[q->avail_idx & (q->size - 1)] = head;
	/* the chain and its ring entry before the index that offers them */
	virtq_wmb();
	q->avail_idx++;
	write16(&q->avail->idx, q->avail_idx);
	return head;
}

/* With event idx: has the index moved past `event` in the step from old to new? */
static int need_event(uint16_t event, uint16_t new_idx, uint16_t old)
{
	return (uint16_t)(new_idx - event - 1) < (uint16_t)(new_idx - old);
}

int virtq_kick_needed(struct virtq *q)
{
	uint16_t old = q->kicked_idx;

	q->kicked_idx = q->avail_idx;
	/* the new avail index must be visible before we read whether the device wants to hear of
	 * it: the device reads them in the opposite order */
	virtq_mb();
	if (q->event_idx)
		return need_event(read16(avail_event(q)), q->avail_idx, old);
	return !(read16(&q->used->flags) & VIRTQ_USED_F_NO_NOTIFY);
}

/* The chain at head is done: its descriptors go back on the free list. 0, or -1 if the chain
 * is not what virtq_add made (a broken device). */
static int free_chain(struct virtq *q, uint16_t head)
{
	uint16_t i = head;
	unsigned int n = 1;

	while (q->desc[i].flags & VIRTQ_DESC_F_NEXT) {
		i = q->desc[i].next;
		if (i >= q->size || ++n > q->size)
			return -1;
	}
	q->desc[i].next = q->free_head;
	q->free_head = head;
	q->num_free = (uint16_t)(q->num_free + n);
	q->tokens[head] = 0;
	return 0;
}

void *virtq_get(struct virtq *q, uint32_t *len)
{
	struct virtq_used_elem e;
	void *token;

	if (q->broken || read16(&q->used->idx) == q->last_used)
		return 0;
	/* the entry is read after the index that covers it */
	virtq_rmb();
	e.id = *(volatile uint32_t *)&q->used->ring[q->last_used & (q->size - 1)].id;
	e.len = *(volatile uint32_t *)&q->used->ring[q->last_used & (q->size - 1)].len;
	if (e.id >= q->size || !q->tokens[e.id]) {
		q->broken = 1; /* a head we did not offer, or offered once and got back twice */
		return 0;
	}
	token = q->tokens[e.id];
	if (free_chain(q, (uint16_t)e.id)) {
		q->broken = 1;
		return 0;
	}
	q->last_used++;
	if (q->event_idx && !q->irq_off) {
		/* interrupt us when the device writes the entry after this one */
		write16(used_event(q), q->last_used);
		virtq_mb();
	}
	if (len)
		*len = e.len;
	return token;
}

void virtq_irq_disable(struct virtq *q)
{
	q->irq_off = 1;
	/* with event idx the flag must stay 0: used_event is then left behind, which the device
	 * passes only after 65536 more entries */
	if (!q->event_idx)
		write16(&q->avail->flags, VIRTQ_AVAIL_F_NO_INTERRUPT);
}

int virtq_irq_enable(struct virtq *q)
{
	q->irq_off = 0;
	if (q->event_idx)
		write16(used_event(q), q->last_used);
	else
		write16(&q->avail->flags, 0);
	/* the device must see the change before we look for entries it wrote meanwhile */
	virtq_mb();
	return read16(&q->used->idx) != q->last_used;
}
