/* ip: the IP stack (init.run= `ip`): lwIP (NO_SYS, raw API; lwip/port) over the network device
 * service "net0" (<tacet/netdev.h>): DHCP at start, ARP, ICMP (answers pings), UDP, TCP.
 * Publishes "ip" (<tacet/ip_proto.h>: the interface's address, ping, and its clients' sockets;
 * dispatch generated from lib/proto/ip.proto). The sockets (<tacet/net.h>) are sock.c's: a
 * session a client, data through rings; the echo service (servers/echo) is such a client.
 *
 * One thread runs everything, so nothing is locked: lib's service loop takes the clients'
 * calls and, through ip's notification bound to the thread, net's wake-ups (NET_BIT: frames
 * received, transmit buffers back, the service's end), lwIP's timer (TIMER_BIT: one kernel
 * timer armed for lwIP's next timeout), the clients' ends (the session table's bits) and their
 * wake-ups (SOCK_KICK_BITS). Each wake-up runs ip_work: net's rings, lwIP's timers, the
 * clients' rings, again until netdev and every session say they may sleep, then the timer
 * re-armed. A ping call waits
 * inside its handler, running ip_work on each wake-up until the reply or the timeout.
 * A build that defines ip_static_address (the benchmark's ip_static: servers/bench/ipstatic.c)
 * takes the address it gives instead of DHCP's.
 * Prints through the kernel's debug output (the console calls this server: `ping`). */
#include <stdio.h>
#include <string.h>

#include <tacet.h>
#include <tacet/init_proto.h>
#include <tacet/ip_server.h>
#include <tacet/netdev.h>

#include "lwip/dhcp.h"
#include "lwip/init.h"
#include "lwip/ip4_addr.h"
#include "lwip/netif.h"
#include "lwip/stats.h"
#include "lwip/timeouts.h"
#include "netif/ethernet.h"

#include "netif.h"
#include "ping.h"
#include "sock.h"

#define NET_BIT   (1ul << 0)
#define TIMER_BIT (1ul << 1)
#define BUF_SIZE  1536 /* >= NETDEV_BUF_MIN, a multiple of 8 */

static struct netdev nd;
static struct netif nif;
static unsigned long ntfn;
static uint64_t timer_armed; /* the deadline the kernel timer is set for (ticks; 0: none) */
static unsigned long deferred; /* bits a wait outside the loop took (ip_wait), for ip_work */
static int leased;

/* Defined only by builds with a fixed address (servers/bench/ipstatic.c): 1 and the interface's
 * address and netmask (host order), or 0 for DHCP. */
int ip_static_address(uint32_t *addr, uint32_t *mask) __attribute__((weak));

static void timer_arm(void)
{
	u32_t ms = sys_timeouts_sleeptime();
	uint64_t deadline;

	if (ms == SYS_TIMEOUTS_SLEEPTIME_INFINITE)
		return;
	deadline = tacet_time() + tacet_ns_to_ticks((uint64_t)ms * 1000000u);
	if (timer_armed && timer_armed <= deadline)
		return; /* the armed timer comes first: it re-arms when it fires */
	if (tacet_timer_set(ntfn, TIMER_BIT, deadline) == 0)
		timer_armed = deadline;
}

void ip_wait(uint64_t deadline)
{
	long got;

	timer_armed = 0; /* this wait's deadline replaces lwIP's: ip_work arms it again */
	tacet_timer_set(ntfn, TIMER_BIT, deadline);
	got = tacet_wait(ntfn);
	if (got > 0)
		deferred |= (unsigned long)got;
}

/* Frames and connections lost inside ip, said when their total first passes 1, 2, 4, 8, ...
 * (a flood says a line per doubling, not a line per frame): transmits with no buffer back from
 * net in time, receives with no pbuf, and connections with no TCP PCB free (their SYN dropped
 * unanswered). A lost RST is the one loss TCP does not repair: its peer stays connected until
 * it sends. */
static void drops_report(void)
{
	static unsigned long said;
	unsigned long tx = ip_netif_stats.tx_full, rx = ip_netif_stats.rx_nomem,
		      tcp = lwip_stats.memp[MEMP_TCP_PCB]->err, now = tx + rx + tcp;

	if (now <= said || now < 2 * said)
		return;
	said = now;
	printf("ip: lost so far: %lu frames with no transmit buffer in time, %lu with no receive "
	       "pbuf, %lu SYNs with no TCP PCB free\n", tx, rx, tcp);
}

/* Everything there is to do: frames from net, lwIP's timers, the clients' rings; until netdev
 * and every session say to sleep. bits: what woke ip, less the session table's (taken by the
 * service loop); those among the bits a wait elsewhere took (ip_wait) go to the table here. */
static void ip_work(unsigned long bits)
{
	unsigned long late = deferred;

	deferred = 0;
	bits |= sock_ended(late);
	if (bits & TIMER_BIT)
		timer_armed = 0;
	for (;;) {
		long err = netdev_poll(&nd, bits);

		if (err >= 0)
			err = ip_netif_input(&nif);
		if (err < 0)
			printf("ip: net0: %s\n", tacet_strerror(err));
		bits = 0;
		sys_check_timeouts();
		sock_work();
		if (netdev_sleep_ok(&nd) && sock_sleep_ok())
			break;
	}
	drops_report();
	timer_arm();
}

static void notified(struct tacet_service *s, unsigned long bits)
{
	(void)s;
	ip_work(bits);
}

/* lwIP's status callback: the lease, said once each time the address changes. */
static void status_changed(struct netif *n)
{
	char a[IP4ADDR_STRLEN_MAX], g[IP4ADDR_STRLEN_MAX];
	u32_t mask = lwip_ntohl(ip4_addr_get_u32(netif_ip4_netmask(n)));
	int bits = 0;

	if (ip4_addr_isany_val(*netif_ip4_addr(n))) {
		leased = 0;
		return;
	}
	while (bits < 32 && (mask & (0x80000000u >> bits)))
		bits++;
	ip4addr_ntoa_r(netif_ip4_addr(n), a, sizeof(a));
	ip4addr_ntoa_r(netif_ip4_gw(n), g, sizeof(g));
	printf("ip: %s/%d gw %s via %s\n", a, bits, g, nd.name);
	leased = 1;
}

long ip_serve_info(struct tacet_service *s, uint64_t *addr, uint64_t *mask, uint64_t *gw)
{
	(void)s;
	*addr = lwip_ntohl(ip4_addr_get_u32(netif_ip4_addr(&nif)));
	*mask = lwip_ntohl(ip4_addr_get_u32(netif_ip4_netmask(&nif)));
	*gw = lwip_ntohl(ip4_addr_get_u32(netif_ip4_gw(&nif)));
	return 0;
}

/* lwIP's counters (LWIP_STATS: every drop is counted where lwIP drops) summed as IP_COUNTS says;
 * a drop lwIP counts at two layers (a bad checksum: ip.chkerr and ip.drop) is counted once. */
long ip_serve_counts(struct tacet_service *s, uint64_t *received, uint64_t *malformed,
		    uint64_t *dropped, uint64_t *fragments)
{
	const struct stats_ *st = &lwip_stats;

	(void)s;
	*received = st->link.recv;
	*malformed = st->etharp.lenerr + st->etharp.chkerr + st->etharp.proterr + st->ip.chkerr +
		     st->ip.lenerr + st->ip_frag.lenerr + st->ip_frag.chkerr + st->icmp.chkerr +
		     st->icmp.lenerr + st->udp.chkerr + st->udp.lenerr + st->tcp.chkerr +
		     st->tcp.lenerr;
	*dropped = st->link.drop + st->etharp.drop + st->ip.drop + st->ip_frag.drop +
		   st->icmp.drop + st->udp.drop + st->tcp.drop + sock_udp_overflows + sock_udp_stale;
	*fragments = st->ip_frag.recv;
	return 0;
}

/* Net's buffers held now, the datagrams dropped for net's end, net's new instances reached, as
 * IP_BUFFERS says. */
long ip_serve_buffers(struct tacet_service *s, uint64_t *held, uint64_t *rx_stale,
		      uint64_t *tx_stale, uint64_t *reattached)
{
	unsigned long rx, tx;

	(void)s;
	ip_netif_buffers(&rx, &tx);
	*held = rx + tx;
	*rx_stale = sock_udp_stale;
	*tx_stale = ip_netif_stats.tx_stale;
	*reattached = nd.reconnects;
	return 0;
}

struct ping_wait {
	int done, answered;
	uint64_t rtt_ns;
	unsigned int ttl;
};

static void ping_done(void *arg, int ok, uint64_t rtt_ns, unsigned int ttl)
{
	struct ping_wait *w = arg;

	w->done = 1;
	w->answered = ok;
	w->rtt_ns = rtt_ns;
	w->ttl = ttl;
}

long ip_serve_ping(struct tacet_service *s, uint64_t addr, uint64_t seq, uint64_t timeout_ms,
		   uint64_t *answered, uint64_t *rtt_ns, uint64_t *ttl)
{
	struct ping_wait w = { 0 };
	ip_addr_t dst = IPADDR4_INIT(lwip_htonl((u32_t)addr));

	(void)s;
	if (addr == 0 || addr > UINT32_MAX || ip4_addr_isbroadcast(ip_2_ip4(&dst), &nif) ||
	    timeout_ms == 0 || timeout_ms > IP_PING_TIMEOUT_MAX)
		return -TACET_EINVAL;
	if (!leased || ping_send(&dst, (uint16_t)seq, (uint32_t)timeout_ms, ping_done, &w) != 0)
		return -TACET_EBUSY;
	ip_work(0); /* the request is out: arm the timer for its timeout */
	while (!w.done) {
		long bits = tacet_wait(ntfn);

		ip_work(sock_ended(bits > 0 ? (unsigned long)bits : 0));
	}
	*answered = (uint64_t)w.answered;
	*rtt_ns = w.rtt_ns;
	*ttl = w.ttl;
	return 0;
}

static uint64_t clock_ns(void)
{
	return tacet_time_ns();
}

/* lwIP up on net0: the netif (link as net says), DHCP started (or the fixed address set),
 * ping ready. */
static long stack_start(void)
{
	ip4_addr_t any = { 0 }, addr = { 0 }, mask = { 0 };
	uint32_t a, m;
	int fixed = ip_static_address && ip_static_address(&a, &m);

	if (fixed) {
		ip4_addr_set_u32(&addr, lwip_htonl(a));
		ip4_addr_set_u32(&mask, lwip_htonl(m));
	}
	lwip_init();
	if (!netif_add(&nif, &addr, &mask, &any, &nd, ip_netif_init, ethernet_input))
		return -TACET_EINVAL;
	netif_set_status_callback(&nif, status_changed);
	netif_set_default(&nif);
	netif_set_up(&nif);
	netif_set_link_up(&nif);
	if (ping_init(IP_ADDR_ANY, clock_ns))
		return -TACET_ENOMEM;
	if (fixed)
		return 0;
	return dhcp_start(&nif) == ERR_OK ? 0 : -TACET_ENOMEM;
}

int main(void)
{
	struct tacet_service service;
	const char *step = "make its notification";
	long slot = tacet_slot_alloc(), err = slot < 0 ? slot : 0;

	ntfn = (unsigned long)slot;
	if (!err)
		err = tacet_ntfn_new(ntfn);
	if (!err && (step = "open net0"))
		err = netdev_open(&nd, "net0", IP_NETIF_NBUFS, BUF_SIZE, ntfn, NET_BIT);
	if (!err && (step = "start lwIP"))
		err = stack_start();
	if (!err && (step = "publish \"ip\""))
		err = tacet_service_open(&service, "ip", TACET_RIGHT_WRITE | TACET_RIGHT_GRANT |
					 INIT_BADGE_CLIENTS, NULL);
	if (!err && (step = "bind its notification"))
		err = tacet_ntfn_bind(ntfn);
	if (err) {
		printf("ip: cannot %s: %s\n", step, tacet_strerror(err));
		return 1;
	}
	service.notified = notified;
	sock_init(&service, ntfn, &nif);
	printf("ip: lwIP %s on %s, MAC %02x:%02x:%02x:%02x:%02x:%02x; DHCP started\n",
	       LWIP_VERSION_STRING, nd.name, nd.mac[0], nd.mac[1], nd.mac[2], nd.mac[3], nd.mac[4],
	       nd.mac[5]);
	ip_work(0);
	err = tacet_service_run(&service, ip_dispatch, NULL);
	printf("ip: receive failed: %s\n", tacet_strerror(err));
	return 1;
}
