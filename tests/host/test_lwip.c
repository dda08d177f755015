/* test_lwip.c: host test of Tacet's lwIP port: the fetched lwIP sources built with lwip/port's
 * lwipopts.h and cc.h (as servers/ip builds them), ip's ping (servers/ip/ping.c) linked as it
 * is, and a raw-API echo (lwip_echo.c) as B's service. One lwIP stack holds two Ethernet netifs, A (10.0.0.1) and B
 * (10.0.0.2), joined by a link made of two lib/ring.c rings (one each way, frames copied into
 * the ring's data area as servers/ip does with the driver's): ARP resolves, A pings B, UDP
 * datagrams (fragmented too) and a 1 MiB TCP stream go through B's echo and back byte for byte
 * with lwIP's heap back to where it was, and malformed frames fed to B are dropped and counted;
 * the port's checksum sum agrees with RFC 1071's two bytes at a time.
 * Time is a counter the test advances (sys_now). lwIP's state is global: one group, one
 * lwip_init, tests in order. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <tacet/ring.h>

#include "lwip/etharp.h"
#include "lwip/inet_chksum.h"
#include "lwip/init.h"
#include "lwip/netif.h"
#include "lwip/pbuf.h"
#include "lwip/prot/etharp.h"
#include "lwip/prot/iana.h"
#include "lwip/prot/ethernet.h"
#include "lwip/prot/ip4.h"
#include "lwip/prot/udp.h"
#include "lwip/stats.h"
#include "lwip/tcp.h"
#include "lwip/timeouts.h"
#include "lwip/udp.h"
#include "netif/ethernet.h"

#include "lwip_echo.h"
#include "ping.h"

#define SLOT 1536    /* data-area bytes per ring slot: one frame */
/* A frame's bytes before an 8-byte boundary, where the frames lwIP gets and the ones built here
 * start, so that the IP header after the Ethernet one is 8-aligned: lwIP's headers are unpacked
 * structs (lwip/port/arch/cc.h) */
#define FRAME_PAD 2
#define FRAME_BYTES 256 /* a frame built here */
/* A frame built here: frame_of(b) its first byte */
struct frame_buf {
	_Alignas(8) uint8_t bytes[FRAME_PAD + FRAME_BYTES];
};
#define frame_of(b) ((b)->bytes + FRAME_PAD)
#define CAPACITY 64  /* frames in flight each way */
#define ROUNDS 200000 /* a pump's limit: a wait that needs more has failed */

struct wire {
	void *shared;
	uint8_t *data;
	struct ring prod, cons;
};

struct end {
	struct netif nif;
	struct eth_addr mac;
	struct wire *tx, *rx;
};

static struct wire ab, ba;
static struct end A, B;
static ip4_addr_t ip_a, ip_b, mask;
static uint32_t now_ms;

u32_t sys_now(void)
{
	return now_ms;
}

uint32_t lwip_port_rand(void)
{
	static uint64_t s = 88172645463325252ull;

	s ^= s << 13;
	s ^= s >> 7;
	s ^= s << 17;
	return (uint32_t)s;
}

static uint64_t clock_ns(void)
{
	return (uint64_t)now_ms * 1000000u;
}

struct netif *test_lwip_route_src(const struct ip4_addr *src, const struct ip4_addr *dest)
{
	struct netif *n;

	(void)dest;
	if (!src || ip4_addr_isany(src))
		return NULL;
	NETIF_FOREACH(n)
		if (ip4_addr_cmp(src, netif_ip4_addr(n)))
			return n;
	return NULL;
}

static void wire_open(struct wire *w)
{
	size_t bytes = ring_bytes(CAPACITY);

	w->shared = malloc(bytes);
	w->data = malloc(SLOT * CAPACITY);
	assert_non_null(w->shared);
	assert_non_null(w->data);
	ring_format(w->shared);
	assert_int_equal(ring_producer_init(&w->prod, w->shared, bytes, CAPACITY, SLOT * CAPACITY), 0);
	assert_int_equal(ring_consumer_init(&w->cons, w->shared, bytes, CAPACITY, SLOT * CAPACITY), 0);
}

/* Put one frame on a wire: the slot is the producer's next index, claimed by ring_put before
 * the copy (a full ring claims nothing), visible at ring_publish. */
static int wire_put(struct wire *w, const void *frame, uint32_t len)
{
	struct ring_desc d = { .offset = (w->prod.own % CAPACITY) * SLOT, .len = len };

	if (len > SLOT || ring_put(&w->prod, &d) != 0)
		return -1;
	memcpy(w->data + d.offset, frame, len);
	ring_publish(&w->prod);
	return 0;
}

static err_t link_output(struct netif *n, struct pbuf *p)
{
	struct end *e = n->state;
	uint8_t frame[SLOT];

	if (p->tot_len > SLOT)
		return ERR_BUF;
	pbuf_copy_partial(p, frame, p->tot_len, 0);
	return wire_put(e->tx, frame, p->tot_len) ? ERR_MEM : ERR_OK;
}

/* Hand every frame waiting on e's receive wire to lwIP; the number handed. */
static int end_poll(struct end *e)
{
	struct ring_desc d;
	int n = 0;

	while (ring_get(&e->rx->cons, &d) == 1) {
		/* 2 bytes in, as ip's link does: the IP header 8-aligned (lwip/port/arch/cc.h) */
		struct pbuf *p = pbuf_alloc(PBUF_RAW, (u16_t)(d.len + FRAME_PAD), PBUF_POOL);

		assert_non_null(p);
		assert_int_equal(pbuf_remove_header(p, FRAME_PAD), 0);
		assert_int_equal(pbuf_take(p, e->rx->data + d.offset, (u16_t)d.len), ERR_OK);
		if (e->nif.input(p, &e->nif) != ERR_OK)
			pbuf_free(p);
		n++;
	}
	ring_release(&e->rx->cons);
	return n;
}

static err_t end_init(struct netif *n)
{
	struct end *e = n->state;

	n->hwaddr_len = ETH_HWADDR_LEN;
	memcpy(n->hwaddr, e->mac.addr, ETH_HWADDR_LEN);
	n->mtu = 1500;
	n->flags = NETIF_FLAG_BROADCAST | NETIF_FLAG_ETHARP | NETIF_FLAG_ETHERNET;
	n->output = etharp_output;
	n->linkoutput = link_output;
	return ERR_OK;
}

static void end_open(struct end *e, const ip4_addr_t *ip, uint8_t last, struct wire *tx,
		     struct wire *rx)
{
	static const uint8_t mac[ETH_HWADDR_LEN] = { 0x52, 0x54, 0x00, 0x12, 0x34, 0x00 };

	memcpy(e->mac.addr, mac, sizeof(mac));
	e->mac.addr[5] = last;
	e->tx = tx;
	e->rx = rx;
	assert_non_null(netif_add(&e->nif, ip, &mask, IP4_ADDR_ANY4, e, end_init, ethernet_input));
	netif_set_up(&e->nif);
	netif_set_link_up(&e->nif);
}

/* Move frames both ways and let time pass (1 ms a round) until *flag is set. */
static void pump_until(const int *flag, const char *what)
{
	for (int i = 0; i < ROUNDS && !*flag; i++) {
		end_poll(&A);
		end_poll(&B);
		now_ms++;
		sys_check_timeouts();
	}
	if (!*flag)
		fail_msg("%s: not done after %d rounds", what, ROUNDS);
}

static int group_setup(void **state)
{
	(void)state;
	IP4_ADDR(&ip_a, 10, 0, 0, 1);
	IP4_ADDR(&ip_b, 10, 0, 0, 2);
	IP4_ADDR(&mask, 255, 255, 255, 0);
	lwip_init();
	wire_open(&ab);
	wire_open(&ba);
	end_open(&A, &ip_a, 1, &ab, &ba);
	end_open(&B, &ip_b, 2, &ba, &ab);
	assert_int_equal(echo_start(&(ip_addr_t)IPADDR4_INIT(ip_b.addr)), 0);
	assert_int_equal(ping_init(&(ip_addr_t)IPADDR4_INIT(ip_a.addr), clock_ns), 0);
	return 0;
}

/* --- ARP and ping -------------------------------------------------------------------------- */

struct ping_result {
	int done, ok;
	uint64_t rtt_ns;
};

static void ping_done(void *arg, int ok, uint64_t rtt_ns, unsigned int ttl)
{
	struct ping_result *r = arg;

	(void)ttl;
	r->done = 1;
	r->ok = ok;
	r->rtt_ns = rtt_ns;
}

static struct ping_result ping_once(const ip4_addr_t *to, uint16_t seq)
{
	struct ping_result r = { 0 };
	ip_addr_t dst = IPADDR4_INIT(to->addr);

	assert_int_equal(ping_send(&dst, seq, 1000, ping_done, &r), 0);
	assert_int_equal(ping_send(&dst, seq, 1000, ping_done, &r), ERR_INPROGRESS);
	pump_until(&r.done, "ping");
	return r;
}

static void test_arp_and_ping(void **state)
{
	struct eth_addr *mac;
	const ip4_addr_t *found;

	(void)state;
	for (uint16_t seq = 1; seq <= 100; seq++) {
		struct ping_result r = ping_once(&ip_b, seq);

		assert_true(r.ok);
		assert_true(r.rtt_ns < 1000000000ull);
	}
	assert_true(etharp_find_addr(&A.nif, &ip_b, &mac, &found) >= 0);
	assert_memory_equal(mac->addr, B.mac.addr, ETH_HWADDR_LEN);
	assert_true(etharp_find_addr(&B.nif, &ip_a, &mac, &found) >= 0);
	assert_memory_equal(mac->addr, A.mac.addr, ETH_HWADDR_LEN);

	/* nobody at 10.0.0.9: ARP goes unanswered, the request times out */
	ip4_addr_t nobody;

	IP4_ADDR(&nobody, 10, 0, 0, 9);
	struct ping_result r = ping_once(&nobody, 101);

	assert_false(r.ok);
}

/* --- UDP ----------------------------------------------------------------------------------- */

static struct {
	uint8_t buf[8192];
	u16_t len;
	int got;
	u16_t from_port;
} udp_rx;

static void udp_client_recv(void *arg, struct udp_pcb *pcb, struct pbuf *p, const ip_addr_t *addr,
			    u16_t port)
{
	(void)arg;
	(void)pcb;
	(void)addr;
	udp_rx.len = pbuf_copy_partial(p, udp_rx.buf, sizeof(udp_rx.buf), 0);
	udp_rx.from_port = port;
	udp_rx.got = 1;
	pbuf_free(p);
}

static uint8_t pattern(uint32_t n, uint32_t i)
{
	return (uint8_t)(n * 131 + i * 7 + (i >> 8) + 1);
}

/* 300 datagrams of 1 to 4,000 bytes (above 1,472 they go as IP fragments both ways). */
static void test_udp_echo(void **state)
{
	struct udp_pcb *pcb = udp_new();
	ip_addr_t a = IPADDR4_INIT(ip_a.addr), b = IPADDR4_INIT(ip_b.addr);
	unsigned long before = echo_stats.datagrams;
	uint8_t out[4000];

	(void)state;
	assert_non_null(pcb);
	assert_int_equal(udp_bind(pcb, &a, 40000), ERR_OK);
	udp_recv(pcb, udp_client_recv, NULL);
	for (uint32_t n = 0; n < 300; n++) {
		u16_t len = (u16_t)(n < 250 ? 1 + n * 1471 / 249 : 1473 + (n - 250) * 50);
		struct pbuf *p = pbuf_alloc(PBUF_TRANSPORT, len, PBUF_RAM);

		assert_non_null(p);
		for (uint32_t i = 0; i < len; i++)
			out[i] = pattern(n, i);
		assert_int_equal(pbuf_take(p, out, len), ERR_OK);
		udp_rx.got = 0;
		assert_int_equal(udp_sendto(pcb, p, &b, ECHO_PORT), ERR_OK);
		pbuf_free(p);
		pump_until(&udp_rx.got, "udp echo");
		assert_int_equal(udp_rx.len, len);
		assert_int_equal(udp_rx.from_port, ECHO_PORT);
		assert_memory_equal(udp_rx.buf, out, len);
	}
	assert_int_equal(echo_stats.datagrams - before, 300);
	udp_remove(pcb);
}

/* --- TCP ----------------------------------------------------------------------------------- */

#define STREAM (1u << 20)

static struct {
	struct tcp_pcb *pcb;
	uint32_t sent, received;
	int connected, finished, closed, bad;
} tc;

static void stream_push(void)
{
	uint8_t chunk[1024];

	while (tc.sent < STREAM && tcp_sndbuf(tc.pcb) > 0) {
		u16_t n = (u16_t)LWIP_MIN(LWIP_MIN(sizeof(chunk), STREAM - tc.sent), tcp_sndbuf(tc.pcb));

		for (u16_t i = 0; i < n; i++)
			chunk[i] = pattern(0, tc.sent + i);
		if (tcp_write(tc.pcb, chunk, n, TCP_WRITE_FLAG_COPY) != ERR_OK)
			break;
		tc.sent += n;
	}
	tcp_output(tc.pcb);
}

static err_t stream_sent(void *arg, struct tcp_pcb *pcb, u16_t len)
{
	(void)arg;
	(void)pcb;
	(void)len;
	stream_push();
	return ERR_OK;
}

static err_t stream_recv(void *arg, struct tcp_pcb *pcb, struct pbuf *p, err_t err)
{
	(void)arg;
	if (!p || err != ERR_OK) {
		tc.closed = 1;
		if (p)
			pbuf_free(p);
		return ERR_OK;
	}
	for (struct pbuf *q = p; q; q = q->next)
		for (u16_t i = 0; i < q->len; i++)
			tc.bad += ((uint8_t *)q->payload)[i] != pattern(0, tc.received + i);
	for (struct pbuf *q = p; q; q = q->next)
		tc.received += q->len;
	tcp_recved(pcb, p->tot_len);
	pbuf_free(p);
	tc.finished = tc.received >= STREAM;
	return ERR_OK;
}

static err_t stream_connected(void *arg, struct tcp_pcb *pcb, err_t err)
{
	(void)arg;
	(void)pcb;
	tc.connected = err == ERR_OK;
	stream_push();
	return ERR_OK;
}

/* 1 MiB through B's TCP echo, then both sides close: the echo's connection and every buffer
 * are freed (lwIP's heap back to what it was). */
static void test_tcp_stream(void **state)
{
	ip_addr_t a = IPADDR4_INIT(ip_a.addr), b = IPADDR4_INIT(ip_b.addr);
	mem_size_t heap = lwip_stats.mem.used;
	unsigned long conns = echo_stats.connections;

	(void)state;
	tc.pcb = tcp_new();
	assert_non_null(tc.pcb);
	assert_int_equal(tcp_bind(tc.pcb, &a, 40001), ERR_OK);
	tcp_recv(tc.pcb, stream_recv);
	tcp_sent(tc.pcb, stream_sent);
	assert_int_equal(tcp_connect(tc.pcb, &b, ECHO_PORT, stream_connected), ERR_OK);
	pump_until(&tc.connected, "tcp connect");
	pump_until(&tc.finished, "tcp echo of 1 MiB");
	assert_int_equal(tc.received, STREAM);
	assert_int_equal(tc.bad, 0);
	assert_int_equal(echo_stats.connections - conns, 1);
	assert_int_equal(tcp_close(tc.pcb), ERR_OK);
	pump_until(&tc.closed, "the echo's close");
	for (int i = 0; i < 1000; i++) { /* the last acknowledgements */
		end_poll(&A);
		end_poll(&B);
		now_ms++;
		sys_check_timeouts();
	}
	assert_int_equal(lwip_stats.mem.used, heap);
}

/* --- malformed frames ---------------------------------------------------------------------- */

/* A valid Ethernet+IPv4+UDP frame from (mac, ip, port 40002) to B's echo, payload `len` bytes
 * of `fill`; its length. */
static uint16_t udp_frame_from(uint8_t *f, const struct eth_addr *mac, const ip4_addr_t *src,
			       uint16_t len, uint8_t fill)
{
	struct eth_hdr *eth = (void *)f;
	struct ip_hdr *ip = (void *)(f + SIZEOF_ETH_HDR);
	struct udp_hdr *udp = (void *)(f + SIZEOF_ETH_HDR + IP_HLEN);
	uint16_t ulen = UDP_HLEN + len;
	struct pbuf *p;

	memset(f, 0, SIZEOF_ETH_HDR + IP_HLEN + ulen);
	memcpy(eth->dest.addr, B.mac.addr, ETH_HWADDR_LEN);
	memcpy(eth->src.addr, mac->addr, ETH_HWADDR_LEN);
	eth->type = PP_HTONS(ETHTYPE_IP);
	IPH_VHL_SET(ip, 4, IP_HLEN / 4);
	IPH_LEN_SET(ip, lwip_htons(IP_HLEN + ulen));
	IPH_TTL_SET(ip, 64);
	IPH_PROTO_SET(ip, IP_PROTO_UDP);
	ip4_addr_copy(ip->src, *src);
	ip4_addr_copy(ip->dest, ip_b);
	IPH_CHKSUM_SET(ip, inet_chksum(ip, IP_HLEN));
	udp->src = PP_HTONS(40002);
	udp->dest = PP_HTONS(ECHO_PORT);
	udp->len = lwip_htons(ulen);
	memset(udp + 1, fill, len);
	p = pbuf_alloc(PBUF_RAW, ulen, PBUF_ROM);
	assert_non_null(p);
	p->payload = udp;
	udp->chksum = ip_chksum_pseudo(p, IP_PROTO_UDP, ulen, &(ip_addr_t)IPADDR4_INIT(src->addr),
				       &(ip_addr_t)IPADDR4_INIT(ip_b.addr));
	pbuf_free(p);
	return SIZEOF_ETH_HDR + IP_HLEN + ulen;
}

static uint16_t udp_frame(uint8_t *f, uint16_t len)
{
	return udp_frame_from(f, &A.mac, &ip_a, len, 0x5a);
}

static void feed_b(const uint8_t *f, uint16_t len)
{
	assert_int_equal(wire_put(&ab, f, len), 0);
	end_poll(&B);
}

static void test_bad_frames(void **state)
{
	struct frame_buf b;
	uint8_t *f = frame_of(&b);
	uint16_t len = udp_frame(f, 32);
	unsigned long echoed = echo_stats.datagrams;
	struct stats_ lw = lwip_stats;

	(void)state;
	feed_b(f, len); /* the frame is right: echoed */
	assert_int_equal(echo_stats.datagrams, echoed + 1);

	feed_b(f, 10); /* shorter than an Ethernet header */
	assert_int_equal(lwip_stats.etharp.drop, lw.etharp.drop + 1);

	f[SIZEOF_ETH_HDR + 10] ^= 0xff; /* IP header checksum */
	feed_b(f, len);
	assert_int_equal(lwip_stats.ip.chkerr, lw.ip.chkerr + 1);
	f[SIZEOF_ETH_HDR + 10] ^= 0xff;

	feed_b(f, SIZEOF_ETH_HDR + IP_HLEN + 4); /* cut inside the UDP header: IP's length lies */
	assert_int_equal(lwip_stats.ip.lenerr, lw.ip.lenerr + 1);

	f[len - 1] ^= 0x01; /* UDP checksum */
	feed_b(f, len);
	assert_int_equal(lwip_stats.udp.chkerr, lw.udp.chkerr + 1);
	f[len - 1] ^= 0x01;

	assert_int_equal(echo_stats.datagrams, echoed + 1);
	feed_b(f, len); /* and the stack still answers */
	assert_int_equal(echo_stats.datagrams, echoed + 2);
}

/* A peer B has never heard from sends a burst (as QEMU's user network forwards a host client's
 * datagrams from the gateway's address): every echo waits for ARP to resolve the peer, and all
 * go once it answers, none dropped while the request was out. */
static void test_arp_queue(void **state)
{
	const struct eth_addr peer_mac = { { 0x52, 0x55, 0x0a, 0x00, 0x00, 0x07 } };
	ip4_addr_t peer;
	struct frame_buf b;
	uint8_t *f = frame_of(&b);
	struct ring_desc d;
	int requests = 0, echoes = 0, burst = 8;

	(void)state;
	end_poll(&A); /* what earlier tests left on B's wire to A */
	IP4_ADDR(&peer, 10, 0, 0, 7);
	for (int i = 0; i < burst; i++)
		feed_b(f, udp_frame_from(f, &peer_mac, &peer, 16, (uint8_t)i));
	while (ring_get(&ba.cons, &d) == 1) { /* what B sent: the ARP request alone */
		const struct eth_hdr *eth = (const void *)(ba.data + d.offset);

		requests += eth->type == PP_HTONS(ETHTYPE_ARP);
		echoes += eth->type == PP_HTONS(ETHTYPE_IP);
	}
	ring_release(&ba.cons);
	assert_int_equal(requests, 1);
	assert_int_equal(echoes, 0);

	/* the peer answers: B sends every echo it kept */
	struct eth_hdr *eth = (void *)f;
	struct etharp_hdr *arp = (void *)(f + SIZEOF_ETH_HDR);

	memset(f, 0, FRAME_BYTES);
	memcpy(eth->dest.addr, B.mac.addr, ETH_HWADDR_LEN);
	memcpy(eth->src.addr, peer_mac.addr, ETH_HWADDR_LEN);
	eth->type = PP_HTONS(ETHTYPE_ARP);
	arp->hwtype = PP_HTONS(LWIP_IANA_HWTYPE_ETHERNET);
	arp->proto = PP_HTONS(ETHTYPE_IP);
	arp->hwlen = ETH_HWADDR_LEN;
	arp->protolen = sizeof(ip4_addr_t);
	arp->opcode = PP_HTONS(ARP_REPLY);
	memcpy(arp->shwaddr.addr, peer_mac.addr, ETH_HWADDR_LEN);
	memcpy(&arp->sipaddr, &peer, sizeof(peer));
	memcpy(arp->dhwaddr.addr, B.mac.addr, ETH_HWADDR_LEN);
	memcpy(&arp->dipaddr, &ip_b, sizeof(ip_b));
	feed_b(f, SIZEOF_ETH_HDR + SIZEOF_ETHARP_HDR);
	while (ring_get(&ba.cons, &d) == 1) {
		const uint8_t *frame = ba.data + d.offset;
		const struct eth_hdr *e = (const void *)frame;

		assert_int_equal(e->type, PP_HTONS(ETHTYPE_IP));
		assert_memory_equal(e->dest.addr, peer_mac.addr, ETH_HWADDR_LEN);
		assert_int_equal(frame[d.len - 1], echoes); /* in order, each once */
		echoes++;
	}
	ring_release(&ba.cons);
	assert_int_equal(echoes, burst);
}

/* RFC 1071's sum, two bytes at a time in network order, as lwIP's LWIP_CHKSUM returns it: the
 * native-order value of the network-order sum, not inverted. */
static uint16_t chksum_reference(const uint8_t *p, int len)
{
	uint32_t sum = 0;

	for (; len > 1; p += 2, len -= 2)
		sum += (uint32_t)p[0] << 8 | p[1];
	if (len)
		sum += (uint32_t)p[0] << 8;
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return lwip_htons((uint16_t)sum);
}

/* The port's checksum (lwip/port/chksum.c) against the reference at every start alignment and
 * lengths 0 to 300 and near 64 KiB, over random bytes and over 0xff (the sum's carries). */
static void test_chksum(void **state)
{
	static uint8_t buf[65536 + 16];

	(void)state;
	for (int fill = 0; fill < 2; fill++) {
		for (size_t i = 0; i < sizeof(buf); i++)
			buf[i] = fill ? 0xff : (uint8_t)rand();
		for (int off = 0; off < 8; off++) {
			for (int len = 0; len <= 300; len++)
				assert_int_equal(lwip_port_chksum(buf + off, len),
						 chksum_reference(buf + off, len));
			for (int len = 65520; len <= 65535; len++)
				assert_int_equal(lwip_port_chksum(buf + off, len),
						 chksum_reference(buf + off, len));
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_arp_and_ping),
		cmocka_unit_test(test_udp_echo),
		cmocka_unit_test(test_tcp_stream),
		cmocka_unit_test(test_bad_frames),
		cmocka_unit_test(test_arp_queue),
		cmocka_unit_test(test_chksum),
	};

	return cmocka_run_group_tests(tests, group_setup, NULL);
}
