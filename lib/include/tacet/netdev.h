/* tacet/netdev.h: a network device's client (lib/netdev.c), over the "net" protocol
 * (<tacet/net_proto.h>): what a stack or a test uses to send and receive Ethernet frames
 * through servers/net without knowing its rings.
 *
 * netdev_open looks the service up by name ("net0", "net1": one a NIC), allocates the rings
 * and two data areas of nbufs buffers each (receive, transmit), opens a session, offers every
 * receive buffer, and gives net the caller's notification and the bits to signal on it. A
 * buffer is buf_size bytes; its frame starts NETDEV_FRAME_OFFSET bytes in (after net's
 * headroom, placed so that the IP header after a 14-byte Ethernet header is 4-byte aligned), so
 * buf_size is at least NETDEV_BUF_MIN.
 *
 * Receiving: netdev_rx gives the next frame received (a pointer into the receive area and its
 * length), or none; the caller reads it in place and gives the buffer back with netdev_rx_done
 * (the frames need not come back in order). Sending: netdev_tx_buf lends a free transmit
 * buffer (NULL when every one is in flight: netdev_poll reclaims those sent), the caller writes
 * the frame there and netdev_tx_send hands it to net; netdev_tx copies a frame in and sends it.
 * Nothing is copied otherwise.
 *
 * Sleeping: when netdev_rx has nothing (and, for a sender, netdev_tx_buf has nothing), call
 * netdev_sleep_ok; if it returns 1, wait for the notification (the caller's own loop may wait
 * for other bits too), then call netdev_poll with the bits that came. netdev_wait_ready does
 * it all for a caller that waits for nothing else. net is signalled only when it sleeps, and
 * signals only when this side does.
 *
 * The service's end: net's endpoint is watched on the same notification, with the same bits
 * and NETDEV_WATCH_BIT. A wake-up with that bit, or one that finds nothing new in the rings,
 * makes netdev_poll ask the service whether it lives (one call): a caller that hands
 * netdev_poll every bit that came cannot take the end's wake-up for frames' that came with it
 * (a lost wake-up: nothing would wake it again). If it has ended, netdev reaches its next
 * instance (init restarts it,
 * after resetting the device: nothing of the old instance's can still be written into the
 * areas), opens the session again on the same areas, offers every receive buffer again and
 * counts every transmit buffer free: frames in flight at the death are lost (a stack
 * retransmits; a buffer lent before is not lent any more: nd->epoch moved). An instance that
 * refuses the session (a faulty one may) is watched all the same: netdev_poll says why once,
 * and its end, whoever ends it, brings the next instance. nd->instance says which instance is
 * reached, nd->reconnects how often. A
 * notification watches one endpoint (the last netdev_open's): a caller with two devices on one
 * notification learns of the other's end by a wake-up with nothing new only, e.g. its own
 * timeout followed by netdev_poll(nd, nd->bits).
 *
 * Errors: 0 or a negative TACET_E* code. -TACET_EFAULT: the service stopped the session (it found
 * this side's rings inconsistent; nothing a correct client does) or the rings' peer index is
 * garbage; netdev_close and open again.
 *
 * Not thread-safe: one thread uses a struct netdev at a time.
 */
#ifndef TACET_NETDEV_H
#define TACET_NETDEV_H

#include <stdint.h>
#include <tacet.h>
#include <tacet/net_proto.h>
#include <tacet/ring.h>

#define NETDEV_FRAME_OFFSET 18 /* in a buffer: >= NET_HEADROOM; 18 + 14 = 32, IP aligned */
#define NETDEV_BUF_MIN      (NETDEV_FRAME_OFFSET + NET_FRAME_MAX)
#define NETDEV_NAME_MAX     24

struct netdev {
	char name[NETDEV_NAME_MAX]; /* the service's */
	unsigned long ep;      /* the service (a lib slot) */
	unsigned long ntfn;    /* the caller's notification (the caller's slot) */
	unsigned long bits;    /* what net (and the service's end) signals on it */
	unsigned long peer;    /* net's notification, badged for the session (a lib slot) */
	struct tacet_dma rings_mem, rx_mem, tx_mem; /* this process's frames, granted to net */
	struct ring rx_free, rx_used, tx_ready, tx_done;
	uint32_t nbufs, buf_size, capacity;
	uint32_t *tx_stack;    /* free transmit buffers' numbers (nbufs of room) */
	uint32_t tx_nfree;
	uint8_t mac[ETH_ALEN];
	int link;
	unsigned int mtu;
	unsigned long instance;   /* the service's instance reached (0: its first start) */
	unsigned long reconnects; /* times the service ended and this client reached the next */
	unsigned long epoch;      /* times every buffer came back to this side (open, reconnects):
				   * a buffer lent in an earlier epoch is lent no more */
	unsigned long rx_frames, tx_frames; /* handed over by this client */
};

/* The bit lib's watch of net's endpoint adds to the device's (above the session table's, the
 * kit's and the bits a server's own loop uses: not a caller's to give). */
#define NETDEV_WATCH_BIT (1ul << 62)

/* Open a session with service `name` (waiting up to 10 s for it to be published): nbufs
 * receive and nbufs transmit buffers of buf_size bytes (nbufs 1..NET_CAPACITY_MAX; buf_size
 * at least NETDEV_BUF_MIN, a multiple of 8); net signals `bits` on notification ntfn (the
 * caller's, kept by the caller). Everything made is undone on failure. */
long netdev_open(struct netdev *nd, const char *name, unsigned int nbufs, unsigned int buf_size,
		 unsigned long ntfn, unsigned long bits);
/* End the session and free what netdev_open made (the areas are kept by net until its device
 * is done with them). */
void netdev_close(struct netdev *nd);
/* Ask the service again for its MAC, link state and MTU (netdev_open fills them in too). */
long netdev_info(struct netdev *nd);

/* A free transmit buffer's frame (NETDEV_FRAME_ROOM bytes of room), or NULL if every one is in
 * flight. The caller owns it until netdev_tx_send. */
void *netdev_tx_buf(struct netdev *nd);
#define NETDEV_FRAME_ROOM(nd) ((nd)->buf_size - NETDEV_FRAME_OFFSET)
/* Send len bytes (NET_FRAME_MIN..NET_FRAME_MAX) of a frame netdev_tx_buf lent. 0, or
 * -TACET_EINVAL (not such a frame, a length out of bounds), -TACET_EFAULT. */
long netdev_tx_send(struct netdev *nd, void *frame, unsigned int len);
/* Give back unsent a frame netdev_tx_buf lent (the caller will not send it). 0, or -TACET_EINVAL
 * (not a lent frame of this session). */
long netdev_tx_unused(struct netdev *nd, void *frame);
/* Copy len bytes in and send them: 0, -TACET_EBUSY (no transmit buffer free: netdev_poll or
 * wait), or as netdev_tx_send. */
long netdev_tx(struct netdev *nd, const void *data, unsigned int len);

/* The next frame received: 1 (*frame, *len set), 0 (none), or -TACET_EFAULT. */
long netdev_rx(struct netdev *nd, void **frame, unsigned int *len);
/* Give a received frame's buffer back to net: 0, -TACET_EINVAL (not a receive buffer's
 * frame), -TACET_EFAULT. */
long netdev_rx_done(struct netdev *nd, void *frame);

/* Reclaim the transmit buffers net is done with and signal net if it waits for room; bits:
 * what the caller's wait brought (0: not after a wait), to notice the service's end: call it
 * right after the wait, before netdev_rx (a wake-up that finds nothing new costs a call to the
 * service, to ask whether it lives). Returns
 * the buffers reclaimed, or a negative code (the reconnect's, if the service ended and its next
 * instance could not be reached). */
long netdev_poll(struct netdev *nd, unsigned long bits);
/* Before the caller sleeps: 1 = sleep (net will signal when a frame comes, or a transmit
 * buffer when none is free), 0 = do not (something came meanwhile). */
int netdev_sleep_ok(struct netdev *nd);
/* Before a caller that waits for a transmit buffer alone sleeps (it takes no frame until one is
 * free: frames waiting to be taken must not keep it awake): 1 = sleep (none is free and net
 * will signal when it gives one back), 0 = do not (one came back meanwhile: netdev_poll). */
int netdev_tx_sleep_ok(struct netdev *nd);
/* Until a frame has come or (if want_tx) a transmit buffer is free, or timeout_ns passed (0:
 * none): 1 (ready), 0 (timeout), or a negative code. Uses the notification alone (a timeout
 * arms its timer with nd->bits, replacing one the caller armed): other bits on it are lost, so
 * only a caller that waits for nothing else uses this. */
long netdev_wait_ready(struct netdev *nd, int want_tx, uint64_t timeout_ns);

#endif
