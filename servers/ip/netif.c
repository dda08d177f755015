/* netif.c: lwIP's Ethernet interface over a network device's session (netif.h): linkoutput
 * copies lwIP's pbuf chain into a transmit buffer netdev lends and hands it to net; input copies
 * each received frame into a pbuf of lwIP's pool, gives the buffer back to net at once and feeds
 * lwIP. Copying keeps lwIP from holding net's receive buffers (a TCP queue may keep pbufs
 * long); a frame costs one copy each way. Runs in ip's one thread (called from lwIP and ip's
 * loop), no locking. */
#include <string.h>

#include <tacet.h>
#include <tacet/netdev.h>

#include "lwip/etharp.h"
#include "lwip/pbuf.h"
#include "lwip/snmp.h"
#include "lwip/stats.h"
#include "netif/ethernet.h"

#include "netif.h"

#define TX_WAIT_NS 100000000ull /* how long a send waits for net to free a transmit buffer */

struct ip_netif_stats ip_netif_stats;

/* A transmit buffer: one free now, or after net has sent some (waiting up to TX_WAIT_NS on ip's
 * notification, ip_wait: what the waits bring is kept for ip's loop); NULL if net frees none
 * in time. */
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
		if (netdev_sleep_ok(nd))
			ip_wait(deadline);
	}
	return frame;
}

static err_t linkoutput(struct netif *n, struct pbuf *p)
{
	struct netdev *nd = n->state;
	void *frame;

	if (p->tot_len > NETDEV_FRAME_ROOM(nd) || p->tot_len > NET_FRAME_MAX) {
		ip_netif_stats.tx_long++;
		LINK_STATS_INC(link.lenerr);
		return ERR_BUF;
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

long ip_netif_input(struct netif *n)
{
	struct netdev *nd = n->state;
	void *frame;
	unsigned int len;
	long r, count = 0;

	while ((r = netdev_rx(nd, &frame, &len)) == 1) {
		struct pbuf *p = pbuf_alloc(PBUF_RAW, (u16_t)len, PBUF_POOL);

		if (p)
			pbuf_take(p, frame, (u16_t)len);
		netdev_rx_done(nd, frame);
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
