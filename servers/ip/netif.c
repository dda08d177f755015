/* netif.c: lwIP's Ethernet interface over a network device's session (netif.h).
 *
 * Receive: an unfragmented UDP datagram goes to lwIP in place, a custom pbuf over net's buffer
 * that gives the buffer back to net when lwIP frees it: lwIP's UDP paths free it before its
 * input returns, and sockets' queues keep at most IP_NETIF_RX_KEPT_MAX such buffers (sock.c
 * copies the rest), so net always has a quarter of its buffers to fill. Any other frame is
 * copied into a pbuf of lwIP's pool and its buffer given back at once (a TCP queue or a
 * reassembly may keep pbufs for long). Transmit: a UDP datagram's pbuf may be a custom one over a
 * transmit buffer
 * net lent (ip_netif_udp_pbuf), whose headers lwIP writes in place and which linkoutput sends as
 * it is; any other pbuf chain is copied into a buffer netdev lends. (lwIP adds a header to a
 * PBUF_RAM pbuf only if the header stays above the pbuf's struct: net's areas are mapped above
 * ip's data. Were they not, lwIP would chain a header pbuf of its own, and the link copy.)
 *
 * A buffer taken before netdev gave every buffer back (nd->epoch moved: a new instance of net
 * reached, or one that refused the session tried) went back with the old session: it is
 * neither sent nor given back, and its received data is not read (ip_netif_rx_stale).
 * Runs in ip's one thread (called from lwIP and ip's loop), no locking. */
#include <string.h>

#include <tacet.h>
#include <tacet/netdev.h>

#include "lwip/etharp.h"
#include "lwip/pbuf.h"
#include "lwip/prot/ip.h"
#include "lwip/prot/ip4.h"
#include "lwip/prot/udp.h"
#include "lwip/snmp.h"
#include "lwip/stats.h"
#include "netif/ethernet.h"

#include "netif.h"

#define TX_WAIT_NS 100000000ull /* how long a send waits for net to free a transmit buffer */

#define ETH_ALIGN_PAD 2 /* before a frame copied into lwIP's pool: its IP header 8-aligned */

/* A UDP datagram's headers in a frame (lwIP's PBUF_TRANSPORT leaves room for TCP's) */
#define UDP_FRAME_HLEN (SIZEOF_ETH_HDR + IP_HLEN + UDP_HLEN + 0u)

struct ip_netif_stats ip_netif_stats;

/* A buffer of net's that lwIP holds as a custom pbuf (one per buffer: its number indexes
 * rx_refs or tx_refs). */
struct buf_ref {
	struct pbuf_custom pc;
	struct netdev *nd;
	void *frame;
	unsigned long gen; /* nd->epoch when it was taken */
	int busy, sent;
};

static struct buf_ref rx_refs[IP_NETIF_NBUFS], tx_refs[IP_NETIF_NBUFS];
static unsigned int rx_refs_busy; /* receive buffers lwIP holds */

/* Counted when asked (rarely), not kept as rx_refs_busy is: no cost to a datagram's path. */
void ip_netif_buffers(unsigned long *rx_held, unsigned long *tx_lent)
{
	*rx_held = rx_refs_busy;
	*tx_lent = 0;
	for (unsigned int i = 0; i < IP_NETIF_NBUFS; i++)
		*tx_lent += tx_refs[i].busy != 0;
}

/* The ref of frame (in area, at NETDEV_FRAME_OFFSET into its buffer), or NULL. */
static struct buf_ref *ref_of(struct buf_ref *refs, const struct netdev *nd, const void *area,
			      const void *frame)
{
	size_t b = (size_t)((const uint8_t *)frame - (const uint8_t *)area) / nd->buf_size;

	return b < IP_NETIF_NBUFS && !refs[b].busy ? &refs[b] : NULL;
}

static int ref_current(const struct buf_ref *r)
{
	return r->gen == r->nd->epoch;
}

static void rx_ref_free(struct pbuf *p)
{
	struct buf_ref *r = (struct buf_ref *)p;

	if (ref_current(r))
		netdev_rx_done(r->nd, r->frame);
	r->busy = 0;
	rx_refs_busy--;
}

/* p's ref if it is over one of net's receive buffers, else NULL. */
static const struct buf_ref *rx_ref_of(const struct pbuf *p)
{
	const struct buf_ref *r = (const struct buf_ref *)p;

	return (p->flags & PBUF_FLAG_IS_CUSTOM) && r->pc.custom_free_function == rx_ref_free ? r :
											    NULL;
}

int ip_netif_rx_may_keep(const struct pbuf *p)
{
	return !rx_ref_of(p) || rx_refs_busy <= IP_NETIF_RX_KEPT_MAX;
}

int ip_netif_rx_stale(const struct pbuf *p)
{
	const struct buf_ref *r = rx_ref_of(p);

	return r && !ref_current(r);
}

static void tx_ref_free(struct pbuf *p)
{
	struct buf_ref *r = (struct buf_ref *)p;

	if (!r->sent && ref_current(r))
		netdev_tx_unused(r->nd, r->frame);
	r->busy = 0;
}

/* r (free) taken: a custom pbuf of len bytes at layer l over frame, or NULL (len too long; r
 * stays free). lwIP puts the payload LWIP_MEM_ALIGN_SIZE(l) bytes into the memory it is given,
 * so that memory starts where the payload lands at frame + l. */
static struct pbuf *ref_take(struct buf_ref *r, struct netdev *nd, void *frame, pbuf_layer l,
			     u16_t len, pbuf_type type, void (*free_fn)(struct pbuf *p))
{
	uint8_t *mem = (uint8_t *)frame + l - LWIP_MEM_ALIGN_SIZE(l);
	struct pbuf *p;

	r->nd = nd, r->frame = frame, r->gen = nd->epoch, r->sent = 0;
	r->pc.custom_free_function = free_fn; /* the pbuf's fields are pbuf_alloced_custom's */
	p = pbuf_alloced_custom(l, len, type, &r->pc, mem,
				(u16_t)(LWIP_MEM_ALIGN_SIZE(l) + NETDEV_FRAME_ROOM(nd) - l));
	r->busy = p != NULL;
	return p;
}

int ip_netif_tx_free(struct netif *n)
{
	struct netdev *nd = n->state;

	return nd->tx_nfree || (netdev_poll(nd, 0) >= 0 && nd->tx_nfree);
}

struct pbuf *ip_netif_udp_pbuf(struct netif *n, u16_t len)
{
	struct netdev *nd = n->state;
	struct buf_ref *r;
	struct pbuf *p;
	void *frame;

	if (UDP_FRAME_HLEN + len > NET_FRAME_MAX || UDP_FRAME_HLEN + len > NETDEV_FRAME_ROOM(nd) ||
	    !(frame = netdev_tx_buf(nd)))
		return NULL;
	r = ref_of(tx_refs, nd, nd->tx_mem.va, frame);
	/* PBUF_RAM: lwIP writes the headers in front of the payload, as into its own pbufs */
	p = r ? ref_take(r, nd, frame, (pbuf_layer)UDP_FRAME_HLEN, len, PBUF_RAM, tx_ref_free) :
		NULL;
	if (!p)
		netdev_tx_unused(nd, frame);
	return p;
}

/* p is a whole frame in a buffer net lent (ip_netif_udp_pbuf's, its headers written in place):
 * its ref, else NULL. */
static struct buf_ref *tx_in_place(struct pbuf *p)
{
	struct buf_ref *r = (struct buf_ref *)p;

	if (!(p->flags & PBUF_FLAG_IS_CUSTOM) || r->pc.custom_free_function != tx_ref_free ||
	    p->next || p->payload != r->frame)
		return NULL;
	return r;
}

/* A transmit buffer: one free now, or after net has sent some (waiting up to TX_WAIT_NS on ip's
 * notification, ip_wait: what the waits bring is kept for ip's loop); NULL if net frees none
 * in time. The wait is for a transmit buffer alone: frames net has received meanwhile wait for
 * ip's loop and must not keep ip awake (a thread that spins here keeps its hart from net
 * wherever they share one, and under -icount from every other hart until a timer fires). */
static void *tx_buffer(struct netdev *nd)
{
	uint64_t deadline = 0;
	void *frame;

	while (!(frame = netdev_tx_buf(nd))) {
		if (netdev_poll(nd, 0) < 0)
			return NULL;
		if ((frame = netdev_tx_buf(nd)))
			break;
		if (!deadline)
			deadline = tacet_time() + tacet_ns_to_ticks(TX_WAIT_NS);
		else if (tacet_time() >= deadline)
			return NULL;
		if (netdev_tx_sleep_ok(nd))
			ip_wait(deadline);
	}
	return frame;
}

static err_t linkoutput(struct netif *n, struct pbuf *p)
{
	struct netdev *nd = n->state;
	struct buf_ref *r;
	void *frame;

	if (p->tot_len > NETDEV_FRAME_ROOM(nd) || p->tot_len > NET_FRAME_MAX) {
		ip_netif_stats.tx_long++;
		LINK_STATS_INC(link.lenerr);
		return ERR_BUF;
	}
	if ((r = tx_in_place(p))) {
		if (!ref_current(r) || r->sent) { /* lent to the session before: gone with it */
			ip_netif_stats.tx_stale++;
			LINK_STATS_INC(link.drop);
			return ERR_IF;
		}
		if (netdev_tx_send(nd, r->frame, p->tot_len) < 0) {
			LINK_STATS_INC(link.err);
			return ERR_IF;
		}
		r->sent = 1;
		LINK_STATS_INC(link.xmit);
		return ERR_OK;
	}
	frame = tx_buffer(nd);
	if (!frame) {
		ip_netif_stats.tx_full++;
		LINK_STATS_INC(link.drop);
		return ERR_MEM;
	}
	pbuf_copy_partial(p, frame, p->tot_len, 0);
	if (netdev_tx_send(nd, frame, p->tot_len) < 0) {
		LINK_STATS_INC(link.err);
		return ERR_IF;
	}
	LINK_STATS_INC(link.xmit);
	return ERR_OK;
}

/* An IPv4 UDP datagram, not a fragment (none of lwIP's queues keeps it)? */
static int plain_udp(const uint8_t *frame, unsigned int len)
{
	return len >= SIZEOF_ETH_HDR + IP_HLEN + UDP_HLEN && frame[12] == 0x08 && frame[13] == 0 &&
	       frame[SIZEOF_ETH_HDR + 9] == IP_PROTO_UDP && !(frame[SIZEOF_ETH_HDR + 6] & 0x3f) &&
	       !frame[SIZEOF_ETH_HDR + 7];
}

/* A copy of frame in a pbuf of lwIP's pool, 2 bytes into it: a pool pbuf's payload is 8-byte
 * aligned, so the IP header (14 bytes in) lands at 16, as lwIP's unpacked headers and its
 * reassembly want (lwip/port/arch/cc.h). NULL if the pool is empty. */
static struct pbuf *pool_frame(const void *frame, unsigned int len)
{
	struct pbuf *p = pbuf_alloc(PBUF_RAW, (u16_t)(len + ETH_ALIGN_PAD), PBUF_POOL);

	if (p && (pbuf_remove_header(p, ETH_ALIGN_PAD) || pbuf_take(p, frame, (u16_t)len))) {
		pbuf_free(p);
		p = NULL;
	}
	return p;
}

/* The received frame as a pbuf: in place for a plain UDP datagram, else a copy in lwIP's pool
 * (the buffer given back now); NULL if lwIP's pool is empty. */
static struct pbuf *rx_pbuf(struct netdev *nd, void *frame, unsigned int len)
{
	struct buf_ref *r = plain_udp(frame, len) ? ref_of(rx_refs, nd, nd->rx_mem.va, frame) :
		NULL;
	struct pbuf *p;

	if (r && (p = ref_take(r, nd, frame, PBUF_RAW, (u16_t)len, PBUF_REF, rx_ref_free))) {
		rx_refs_busy++;
		return p;
	}
	p = pool_frame(frame, len);
	netdev_rx_done(nd, frame);
	return p;
}

long ip_netif_input(struct netif *n)
{
	struct netdev *nd = n->state;
	void *frame;
	unsigned int len;
	long r, count = 0;

	while ((r = netdev_rx(nd, &frame, &len)) == 1) {
		struct pbuf *p = rx_pbuf(nd, frame, len);

		count++;
		if (!p) {
			ip_netif_stats.rx_nomem++;
			LINK_STATS_INC(link.memerr);
			LINK_STATS_INC(link.drop);
			continue;
		}
		LINK_STATS_INC(link.recv);
		if (n->input(p, n) != ERR_OK)
			pbuf_free(p);
	}
	return r < 0 ? r : count;
}

err_t ip_netif_init(struct netif *n)
{
	struct netdev *nd = n->state;

	n->name[0] = 'e';
	n->name[1] = 'n';
	n->hwaddr_len = ETH_HWADDR_LEN;
	memcpy(n->hwaddr, nd->mac, ETH_HWADDR_LEN);
	n->mtu = nd->mtu && nd->mtu <= ETH_MTU ? (u16_t)nd->mtu : ETH_MTU;
	n->flags = NETIF_FLAG_BROADCAST | NETIF_FLAG_ETHARP | NETIF_FLAG_ETHERNET;
	n->output = etharp_output;
	n->linkoutput = linkoutput;
	return ERR_OK;
}
