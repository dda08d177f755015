/* netif.h: lwIP's network interface over a network device's session (<tacet/netdev.h>). */
#ifndef IP_NETIF_H
#define IP_NETIF_H

#include <tacet/netdev.h>
#include "lwip/netif.h"

/* lwIP's netif init function: netif_add(..., nd, ip_netif_init, ethernet_input), nd an open
 * session. */
err_t ip_netif_init(struct netif *n);

/* Receive and transmit buffers of ip's session with net (ip.c opens it with these). */
#define IP_NETIF_NBUFS 128

/* Receive buffers of net's that sockets may keep as received datagrams (sock.c's queues); the
 * rest stay net's to fill: a quarter, so that frames keep coming while clients are slow. */
#define IP_NETIF_RX_KEPT_MAX (IP_NETIF_NBUFS * 3 / 4)

/* Hand every frame the device has received to lwIP: an unfragmented UDP datagram in place (a
 * pbuf over net's buffer, given back to net when lwIP frees it: lwIP's UDP paths free it before
 * its input returns; a socket keeps it only while ip_netif_rx_may_keep says so, else copies
 * it), anything else copied into lwIP's pool and its buffer given back at once (TCP and
 * reassembly may keep pbufs for long). The frames handed, or netdev's error. */
long ip_netif_input(struct netif *n);

/* May a socket keep received pbuf p (1), or must it copy it (0: p is over one of net's buffers
 * and IP_NETIF_RX_KEPT_MAX of them are kept)? */
int ip_netif_rx_may_keep(const struct pbuf *p);

/* Is received pbuf p over a buffer that went back to net with a session net ended (1: the
 * next instance may be writing it, its data is not to be read), or not (0)? */
int ip_netif_rx_stale(const struct pbuf *p);

/* Is a transmit buffer free now (net's returns taken first)? 1, or 0: every one is in flight,
 * and a send would wait in the link for net to give one back (ip's loop sleeps instead:
 * netdev_sleep_ok waits for their return when none is free). */
int ip_netif_tx_free(struct netif *n);

/* A pbuf for a UDP datagram of len bytes whose headers lwIP writes in front of it in a transmit
 * buffer net lent, which the link then sends as it is (no copy); given back to net unsent if
 * lwIP frees it first. NULL if no buffer is free now or the frame would not fit one: the caller
 * takes a pbuf of lwIP's heap, copied into a buffer at the link. */
struct pbuf *ip_netif_udp_pbuf(struct netif *n, u16_t len);

/* ip.c's: one wait on ip's notification, until a wake-up or `deadline` (timebase ticks), what
 * it brings kept for ip's loop. For a send that waits for a transmit buffer, inside lwIP. */
void ip_wait(uint64_t deadline);

/* Net's buffers lwIP holds now as pbufs: receive buffers (*rx_held), transmit buffers lent to
 * datagrams being written (*tx_lent). */
void ip_netif_buffers(unsigned long *rx_held, unsigned long *tx_lent);

/* Frames dropped here: no transmit buffer in time, a frame too long, no pbuf for a receive, a
 * datagram written into a transmit buffer lent to a session net ended (tx_stale). */
struct ip_netif_stats {
	unsigned long tx_full, tx_long, rx_nomem, tx_stale;
};
extern struct ip_netif_stats ip_netif_stats;

#endif
