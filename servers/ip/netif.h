/* netif.h: lwIP's network interface over a network device's session (<tacet/netdev.h>). */
#ifndef IP_NETIF_H
#define IP_NETIF_H

#include <tacet/netdev.h>
#include "lwip/netif.h"

/* lwIP's netif init function: netif_add(..., nd, ip_netif_init, ethernet_input), nd an open
 * session. */
err_t ip_netif_init(struct netif *n);

/* Hand every frame the device has received to lwIP (copied into lwIP's pool, the buffer given
 * back at once). The frames handed, or netdev's error. */
long ip_netif_input(struct netif *n);

/* ip.c's: one wait on ip's notification, until a wake-up or `deadline` (timebase ticks), what
 * it brings kept for ip's loop. For a send that waits for a transmit buffer, inside lwIP. */
void ip_wait(uint64_t deadline);

/* Frames dropped here: no transmit buffer in time, a frame too long, no pbuf for a receive. */
struct ip_netif_stats {
	unsigned long tx_full, tx_long, rx_nomem;
};
extern struct ip_netif_stats ip_netif_stats;

#endif
