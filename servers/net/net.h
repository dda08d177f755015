/* net.h: what the files of the net server (the virtio-net driver) share, and only that: the
 * queue pairs' and the sessions' types, the state more than one file reads, the lock over it,
 * and the functions one file calls in another. net.c has the design.
 *
 * The files: net.c, the service (its start, its calls); device.c, the device (bring-up, feature
 * negotiation, the queue pairs' vectors and threads, the control queue, the reset); pass.c, the
 * data path (a pass over a pair: receive and transmit completions, new buffers to the device,
 * the clients told; the receiver's choice; the threads that run passes; the counts and their
 * calls); session.c, the sessions (the slots clients give, stop, detach, free).
 *
 * Locking: one lock (lock(), a word threads take in turn, yielding while another holds it)
 * over everything but the kit's own state: the main thread (the kit's loop: calls, the
 * configuration's or the one line's interrupt, the clients' signals) takes it for each call
 * and pass, a pair's thread for each pass over its pair. Only the main thread touches lib's
 * slots, stdio outside the lock, and the device's reset: a pair's thread leaves what needs
 * them (a session to detach or free, a reset) to it (sweep, reset_soon). Prints only through
 * the kernel's debug output. */
#ifndef SERVERS_NET_NET_H
#define SERVERS_NET_NET_H

#include <stdint.h>
#include <tacet.h>
#include <tacet/net_proto.h>
#include <tacet/ring.h>
#include <tacet/virtio.h>

#define QUEUE_SIZE   128 /* the most one page takes */
#define PAIRS_MAX    4   /* queue pairs: one a hart */
#define PAIR_RX_BIT   1ul /* a pair thread's notification: its receive queue's vector, */
#define PAIR_TX_BIT   2ul /* its transmit queue's, */
#define PAIR_POLL_BIT 4ul /* another pass is due */
#define MAX_CLIENTS  TACET_SESSIONS_MAX
#define MAX_SESSIONS 16  /* open, or ended with buffers at the device */
#define SESSION_BIT(i) (1ul << (40 + (i))) /* a session's signal: above the table's watches */
#define SESSION_BITS   (((1ul << MAX_SESSIONS) - 1) << 40)
#define POLL_BIT       (1ul << 62) /* this server's own: another pass is due */

_Static_assert(40 + MAX_SESSIONS <= 62, "the sessions' bits below POLL_BIT");

struct area {          /* a data area: the client's frame, pinned to the device */
	unsigned long slot; /* 0: none attached */
	uint64_t pa;
	uint32_t size;      /* bytes the client said (at most the frame's) */
};

struct session {
	unsigned long badge;  /* 0: free */
	int open;             /* the client's session is open */
	int started;          /* NET_START done: its rings are live */
	int stopped;          /* its rings lied: nothing more taken or given */
	int granted;          /* its client's init.run= entry grants it `[NAME=receive]` */
	uint64_t seq;         /* start order: the receiver is the earliest (granted first) */
	struct area rx, tx;
	unsigned long rings_slot, rings_va, rings_pages; /* mapped here (0: none) */
	uint32_t capacity;
	unsigned long ntfn, bits; /* the client's notification (a slot) and what to signal */
	struct ring rx_free, rx_used, tx_ready, tx_done;
	unsigned int at_rx, at_tx; /* its buffers the device holds, on each kind of queue */
	int put_rx, put_tx;       /* descriptors put since the last publish */
	int detach_due;           /* stopped by a pass: 1, 2 if it was the receiver; sweep() */
};

struct buf { /* a chain at the device (its token) */
	struct session *s;
	struct ring_desc d; /* as the client put it */
};

struct queue {
	struct virtq q;
	unsigned int index;           /* the device's number for it */
	int rx;                       /* a receive queue (else transmit) */
	struct buf bufs[QUEUE_SIZE];
	struct buf *free[QUEUE_SIZE]; /* bufs not at the device */
	unsigned int nfree;
	void *mem;                    /* the rings' memory, laid out again after a reset */
	uint64_t pa;
	unsigned long irq_slot;       /* its own vector's line (a pair thread's), 0: the one line */
	unsigned int line;
	uint64_t base;                /* the line's count (the kernel's) at this instance's start */
	uint64_t irqs, done;          /* interrupts taken on its own line; completions taken */
};

struct pair {
	struct queue rx, tx;
	unsigned int hart;  /* its thread's, and its vectors' */
	unsigned long ntfn; /* its thread's notification (0: no thread, the main one serves it) */
};

/* device.c's: written by setup before the loop starts and only read after it, but the queues
 * in pairs[] and the resets' count (under the lock). */
extern struct tacet_device dev;
extern struct virtio_device vdev;
extern struct pair pairs[PAIRS_MAX];
extern unsigned int npairs, main_hart;
extern unsigned int rx_kept; /* a receive queue's descriptors kept free: QUEUE_SIZE - its share */
extern uint8_t mac[ETH_ALEN];
extern unsigned int resets;

/* session.c's, under the lock (clients[]: only the main thread writes it). */
extern int sweep_due; /* a session to detach or free: the main thread's next pass */
extern struct session sessions[MAX_SESSIONS];
extern struct session *clients[MAX_CLIENTS]; /* badge b's open session */
extern uint64_t stopped;
extern unsigned int client_slots;

/* net.c's: the lock's word. */
extern int busy;

/* --- the lock -------------------------------------------------------------------------------- */

/* Taken by one thread at a time, never twice by one; a thread that finds it held gives its
 * hart to whoever is ready there (the holder, if it runs on the same hart). */
static inline void lock(void)
{
	while (__atomic_exchange_n(&busy, 1, __ATOMIC_ACQUIRE))
		tacet_yield();
}

static inline void unlock(void)
{
	__atomic_store_n(&busy, 0, __ATOMIC_RELEASE);
}

/* A session the passes serve: open, started, not stopped. */
static inline int live(const struct session *s)
{
	return s->badge && s->open && s->started && !s->stopped;
}

/* session.c: the lock held, but ended (the main thread's, without it) and the slots (the main
 * thread's). */
long slot_copy(unsigned long from, unsigned long rights, unsigned long *into);
void slot_free(unsigned long *slot);
void area_free(struct area *a);
void rings_unmap(struct session *s);
void ended(struct tacet_sessions *t, unsigned long badge, void *state);
void session_stop(struct session *s, const char *why);
void sweep(void);

/* pass.c: the lock held, but pair_run (a pair thread's body) and event (the kit loop's). */
struct session *receiver(void);
void reset_soon(const char *why);
void publish(void);
void pair_reoffer(struct pair *p);
void pair_run(void *arg);
void event(struct tacet_device *d, long ev);

/* device.c: device_reset the main thread's, the lock held; setup before the loop. */
void device_reset(const char *why);
int link_up(void);
long setup(const char **step);

#endif
