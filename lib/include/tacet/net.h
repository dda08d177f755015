/* tacet/net.h: lib's sockets over the IP stack's service "ip" (lib/net.c; <tacet/ip_proto.h>
 * says what ip does with each call and message).
 *
 * tacet_net_open looks "ip" up, allocates one frame (four rings of `capacity` descriptors, then
 * `capacity` transmit and `capacity` receive buffers of buf_size bytes), opens a session with
 * it, offers every receive buffer and gives ip the caller's notification and bits. Then sockets:
 * tacet_net_socket, _bind, _listen, _connect and _close are calls (set-up only); data goes
 * through the rings: tacet_net_send copies into transmit buffers (waiting for free ones: ip
 * gives a TCP message's buffer back once lwIP has taken all of it, so a fast sender waits for
 * the network), tacet_net_recv copies out of the received messages. A message for another
 * socket than the one asked for is kept (its buffer held) until that socket's receive, so
 * sockets can be used in any order from the one thread.
 *
 * Waits (accept, connect, recv, send) end after timeout_ns (0: none) with -TACET_EBUSY; they
 * wait on the caller's notification (the bits given at open), using its timer: another use of
 * those bits or of the notification's timer by the caller is not allowed meanwhile. A session
 * ends when this process ends: ip closes its sockets. ip's end (its endpoint is watched on the
 * same notification and bits) ends the session too: a wait says -TACET_EDEAD, and every socket
 * is gone with ip's state (a restarted ip knows none of them): tacet_net_close, then open
 * again (tacet_net_open waits for the next instance). Errors are negative TACET_E* codes; a
 * ring ip wrote garbage into gives -TACET_EFAULT.
 *
 * Not thread-safe: one thread uses a struct tacet_net at a time.
 */
#ifndef TACET_NET_H
#define TACET_NET_H

#include <stddef.h>
#include <stdint.h>
#include <tacet.h>
#include <tacet/ip_proto.h>
#include <tacet/ring.h>

struct tacet_net_held {
	struct ring_desc d; /* a received message's buffer */
	struct ip_msg m;    /* its header, read once and checked as it was taken from the ring */
	uint32_t taken;     /* its payload bytes already copied out */
};

struct tacet_net {
	unsigned long ep;   /* the service (a lib slot) */
	unsigned long ntfn; /* the caller's notification (the caller's slot) */
	unsigned long bits;
	unsigned long peer; /* ip's notification, badged for the session (a lib slot) */
	struct tacet_dma mem; /* the frame granted to ip */
	uint8_t *tx_area, *rx_area;
	uint32_t capacity, buf_size;
	struct ring tx_ready, tx_done, rx_free, rx_used;
	uint32_t tx_free[IP_CAPACITY_MAX]; /* free transmit buffers' numbers */
	uint32_t tx_nfree;
	/* received, not yet taken, oldest first: nheld of them from held[held_first] on, circularly
	 * (taking the oldest moves nothing) */
	struct tacet_net_held held[IP_CAPACITY_MAX];
	uint32_t nheld, held_first;
	uint8_t type[IP_SOCKETS_MAX + 1]; /* each socket's IP_SOCK_*, by id (0: none) */
	uint32_t out[IP_SOCKETS_MAX + 1]; /* each socket's messages ip has not given back */
	uint8_t closing[IP_SOCKETS_MAX + 1]; /* closed here, ip asked once out[] is 0 */
	uint32_t nclosing;
};

/* Open a session with "ip" (waiting up to 10 s for it to be published): capacity a power of
 * two (2..IP_CAPACITY_MAX), buf_size IP_BUF_MIN..IP_BUF_MAX (a multiple of 8); ip signals
 * `bits` on notification ntfn (the caller's). Everything made is undone on failure. */
long tacet_net_open(struct tacet_net *n, unsigned int capacity, unsigned int buf_size,
		    unsigned long ntfn, unsigned long bits);
/* End the session: every socket closed, the frame freed. */
void tacet_net_close(struct tacet_net *n);

/* A socket, IP_SOCK_UDP or IP_SOCK_TCP: its id (> 0), or an error. */
long tacet_net_socket(struct tacet_net *n, int type);
long tacet_net_bind(struct tacet_net *n, long sock, uint32_t addr, uint16_t port);
long tacet_net_listen(struct tacet_net *n, long sock);
/* The next connection on a listening socket: its socket's id, or an error. */
long tacet_net_accept(struct tacet_net *n, long sock, uint64_t timeout_ns);
/* TCP: until the connection is up (0) or failed (-TACET_EDEAD). UDP: sets the peer at once. */
long tacet_net_connect(struct tacet_net *n, long sock, uint32_t addr, uint16_t port,
		       uint64_t timeout_ns);
/* The socket's id is no longer the caller's (what comes for it is dropped). ip is asked to
 * close it once it has taken every message sent on it (their buffers back: ip's close drops
 * a message it still holds), at this call or, later, in a wait of another call; meanwhile the
 * socket still counts in the session's quota. TCP: the connection closes once what was sent is
 * out. 0, or an error of ip's close. */
long tacet_net_sock_close(struct tacet_net *n, long sock);

/* Send len bytes: TCP, in as many messages as they need; UDP, one datagram (len at most
 * buf_size - sizeof(struct ip_msg)) to addr:port, or to the connected peer if port is 0.
 * Returns len, or an error (-TACET_EBUSY: no transmit buffer came in time). */
long tacet_net_send(struct tacet_net *n, long sock, const void *buf, size_t len, uint32_t addr,
		    uint16_t port);
/* Receive: TCP, up to len bytes of what came (at least 1); UDP, one datagram (cut to len), its
 * sender in *addr and *port if not NULL. Returns the bytes, 0 when the peer has closed (TCP;
 * and from then on), or an error (-TACET_EBUSY: nothing in time). */
long tacet_net_recv(struct tacet_net *n, long sock, void *buf, size_t len, uint64_t timeout_ns,
		    uint32_t *addr, uint16_t *port);

/* Until ip has handed over something (data, a connection, an event) for any socket: the id of
 * the socket the oldest of it is for, which a recv or accept on it then takes without waiting;
 * or an error (-TACET_EBUSY: nothing in time). One thread serving many sockets waits here. */
long tacet_net_ready(struct tacet_net *n, uint64_t timeout_ns);

#endif
