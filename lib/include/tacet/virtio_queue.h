/* tacet/virtio_queue.h: split virtqueues (virtio 1.x, "Split Virtqueues"), the driver's side.
 *
 * A queue is three areas in memory the device reads and writes by DMA: the descriptor table
 * (what each buffer is), the available ring (the driver's: heads of chains it offers) and the
 * used ring (the device's: heads it is done with, and how many bytes it wrote). virtq_init()
 * lays all three out in one block the caller provides (virtq_bytes(size) long, 16-byte
 * aligned, physically contiguous at `pa`): VIRTQ_SIZE_MAX entries fit in one 4 KiB page.
 *
 * Free-running 16-bit indices: avail_idx and last_used count for ever and wrap at 65536; a
 * slot in a ring is the index modulo the size (a power of two, so the wrap keeps it right).
 * Unused descriptors form a free list through their `next` fields. Every chain carries a token
 * (the caller's pointer, never NULL) that virtq_get() hands back with it, in whatever order the
 * device finished them.
 *
 * Ordering: descriptors and the ring entry are written before the index that publishes them
 * (a write barrier), and the index before the device is told (virtq_kick_needed() has a full
 * barrier, then reads whether the device wants to be told); the used index is read before the
 * entries it covers (a read barrier). Interrupt suppression: VIRTQ_AVAIL_F_NO_INTERRUPT, or with
 * VIRTIO_F_EVENT_IDX negotiated the used_event / avail_event words after the rings.
 *
 * Not thread-safe: one thread drives a queue (a driver's server loop). Portable C with no
 * system calls, so the host tests (tests/host/test_virtio.c) run it against a fake device.
 * Little-endian only (virtio 1.x is little-endian, as are RISC-V and the hosts we test on).
 */
#ifndef TACET_VIRTIO_QUEUE_H
#define TACET_VIRTIO_QUEUE_H

#include <stddef.h>
#include <stdint.h>

#define VIRTQ_SIZE_MAX 128 /* entries: a queue of this size takes 3,342 bytes, one page */

#define VIRTQ_DESC_F_NEXT  1 /* the chain goes on at `next` */
#define VIRTQ_DESC_F_WRITE 2 /* the device writes this buffer (else it reads it) */
#define VIRTQ_AVAIL_F_NO_INTERRUPT 1 /* driver to device: no interrupt needed for now */
#define VIRTQ_USED_F_NO_NOTIFY     1 /* device to driver: no notification needed for now */

struct virtq_desc {
	uint64_t addr; /* physical address of the buffer */
	uint32_t len;
	uint16_t flags;
	uint16_t next;
};

struct virtq_avail {
	uint16_t flags;
	uint16_t idx;
	uint16_t ring[]; /* size entries, then used_event (event idx) */
};

struct virtq_used_elem {
	uint32_t id;  /* head of the chain */
	uint32_t len; /* bytes the device wrote into its writable buffers */
};

struct virtq_used {
	uint16_t flags;
	uint16_t idx;
	struct virtq_used_elem ring[]; /* size entries, then avail_event (event idx) */
};

/* One buffer of a chain, by physical address. */
struct virtq_buf {
	uint64_t addr;
	uint32_t len;
};

struct virtq {
	unsigned int size;
	struct virtq_desc *desc;
	struct virtq_avail *avail;
	struct virtq_used *used;
	uint64_t desc_pa, avail_pa, used_pa; /* what the device is told (QueueDesc/Driver/Device) */
	uint16_t free_head;  /* first free descriptor */
	uint16_t num_free;
	uint16_t avail_idx;  /* the driver's copy of avail->idx */
	uint16_t last_used;  /* the next used entry to take */
	uint16_t kicked_idx; /* avail_idx when the device was last considered for a notify */
	int event_idx;       /* VIRTIO_F_EVENT_IDX negotiated */
	int irq_off;         /* virtq_irq_disable() in force */
	int broken;          /* the device put something impossible in the used ring */
	void *tokens[VIRTQ_SIZE_MAX]; /* per chain head: the caller's token; NULL when free */
};

/* Bytes the three areas of a queue of size entries take (virtq_init lays them out). */
size_t virtq_bytes(unsigned int size);

/* Set q up over mem (virtq_bytes(size) bytes, 16-byte aligned, zeroed or not) at physical
 * address pa; size a power of two up to VIRTQ_SIZE_MAX. event_idx: VIRTIO_F_EVENT_IDX was
 * negotiated. 0, or -TACET_EINVAL. */
int virtq_init(struct virtq *q, unsigned int size, void *mem, uint64_t pa, int event_idx);

/* Offer a chain to the device: nout buffers it reads, then nin it writes (bufs[0..nout+nin)),
 * with token (non-NULL) to know it again by. Published at once (the avail index moves); the
 * device is told only by a notify, which virtq_kick_needed() says whether to send. Returns the
 * chain's head, -TACET_EBUSY if too few descriptors are free (nothing changed), -TACET_EINVAL
 * for an empty chain, a NULL token or a broken queue. */
int virtq_add(struct virtq *q, const struct virtq_buf *bufs, unsigned int nout, unsigned int nin,
	      void *token);

/* After one or more virtq_add: does the device want a notify (QueueNotify)? */
int virtq_kick_needed(struct virtq *q);

/* Take the next chain the device is done with: its token, and in *len the bytes it wrote;
 * NULL if none (or the queue is broken: q->broken says so). Its descriptors are free again. */
void *virtq_get(struct virtq *q, uint32_t *len);

/* Ask the device for no interrupts (a driver that polls for a while), or again for them.
 * virtq_irq_enable returns 1 if used entries are already waiting: they came while interrupts
 * were off, and no interrupt will announce them, so take them now. */
void virtq_irq_disable(struct virtq *q);
int virtq_irq_enable(struct virtq *q);

/* The barriers between the driver's memory writes and the device's view of them. Writes to
 * the device's registers are ordered after memory writes by virtio_notify (<tacet/virtio.h>). */
static inline void virtq_mb(void)
{
#ifdef __riscv
	__asm__ volatile("fence rw, rw" ::: "memory");
#else
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
#endif
}

static inline void virtq_wmb(void)
{
#ifdef __riscv
	__asm__ volatile("fence w, w" ::: "memory");
#else
	__atomic_thread_fence(__ATOMIC_RELEASE);
#endif
}

static inline void virtq_rmb(void)
{
#ifdef __riscv
	__asm__ volatile("fence r, r" ::: "memory");
#else
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
#endif
}

#endif
