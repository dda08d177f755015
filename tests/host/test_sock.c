/* test_sock.c: host test of servers/ip/sock.c (the sessions ip serves its socket clients) as it
 * is, over lwIP built for the host, against a fake kernel and a fake netif (netif.h: net's
 * buffers are not the question here). The test plays the client's side of a session's four
 * rings (lib/ring.c) over a frame it allocates, as lib/net.c lays them out.
 *
 * What it checks: a buffer ip hands back (a received datagram in rx_used, a sent message's
 * buffer in tx_done) can be put in again by the client at once. The client has exactly a
 * ring's capacity of buffers of each kind, so that holds only if ip released the slot it took
 * the buffer from (rx_free, tx_ready) before it published the buffer (ring.h, "Buffers handed
 * back"). The client runs on another hart and may act the moment ip publishes: ring_publish is
 * wrapped (-Wl,--wrap) so that the client acts right there, inside ip's publish. When ip
 * published first, the client's put found the ring full (-TACET_EBUSY), and lib/net.c dropped
 * the buffer: in ip-udp-held-net-dies the echo client lost all 64 of its receive buffers that
 * way, under load, and its socket never drained again. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <tacet.h>
#include <tacet/ip_proto.h>
#include <tacet/ip_server.h>
#include <tacet/ring.h>

#include "lwip/init.h"
#include "lwip/pbuf.h"
#include "lwip/udp.h"
#include "netif.h"
#include "sock.h"

#define CAPACITY   4
#define BUF_SIZE   256
#define NTFN       5     /* ip's notification */
#define PROCESS    40    /* the client's process, as IP_OPEN brings it */
#define AREA       41    /* the client's frame, as IP_ATTACH brings it */
#define CLIENT_NTFN 42   /* the client's notification, as IP_START brings it */
#define BITS       1ul
#define PORT       7
#define PEER_ADDR  0x0a000902u
#define PEER_PORT  5000

/* --- the fake kernel ----------------------------------------------------------------------- */

static uint8_t *frame;     /* the client's frame: four rings, then the two areas */
static unsigned long frame_pages;
long tacet_cap_info(unsigned long slot, unsigned long *rights, unsigned long *badge)
{
	if (badge)
		*badge = 0;
	if (slot == AREA) {
		*rights = TACET_RIGHT_READ | TACET_RIGHT_WRITE;
		return TACET_CAP_FRAME;
	}
	*rights = 0;
	return TACET_CAP_PROCESS; /* the client's process (and the table's copy of it) */
}

long tacet_cap_info_of(unsigned long slot, long type, unsigned long out[5])
{
	memset(out, 0, 5 * sizeof(out[0]));
	if (slot == CLIENT_NTFN && type == TACET_CAP_NOTIFICATION) {
		out[0] = TACET_RIGHT_WRITE;
		return 0;
	}
	if (slot == AREA && type == TACET_CAP_FRAME) {
		out[0] = TACET_RIGHT_READ | TACET_RIGHT_WRITE;
		out[3] = frame_pages;
		return 0;
	}
	return -TACET_ETYPE;
}

long tacet_frame_info(unsigned long slot, unsigned long *paddr, unsigned long *pages)
{
	assert_int_equal(slot, AREA);
	*paddr = 0;
	*pages = frame_pages;
	return 0;
}

long tacet_frame_is_ram(unsigned long slot)
{
	return slot == AREA;
}

long tacet_call_cap(unsigned long ep, struct tacet_msg *msg, unsigned long reply_slot)
{
	(void)ep, (void)msg, (void)reply_slot;
	return -TACET_EINVAL;
}

unsigned long tacet_va_alloc(unsigned long pages)
{
	assert_int_equal(pages, frame_pages);
	return (unsigned long)frame;
}

void tacet_va_free(unsigned long va, unsigned long pages)
{
	(void)va, (void)pages;
}

long tacet_map(unsigned long process, unsigned long slot, unsigned long vaddr,
	       unsigned long rights)
{
	(void)process, (void)slot, (void)vaddr, (void)rights;
	return 0;
}

long tacet_unmap(unsigned long process, unsigned long vaddr, unsigned long pages)
{
	(void)process, (void)vaddr, (void)pages;
	return 0;
}

long tacet_service_take_cap(struct tacet_service *s)
{
	(void)s;
	return tacet_slot_alloc();
}

long tacet_service_reply_slot(struct tacet_service *s)
{
	(void)s;
	return tacet_slot_alloc();
}

long tacet_signal(unsigned long ntfn, unsigned long bits)
{
	(void)ntfn, (void)bits;
	return 0;
}

/* lwIP's port (lwip/port/sys_tacet.c on Tacet) */
u32_t sys_now(void)
{
	return 0;
}

uint32_t lwip_port_rand(void)
{
	return 4;
}

/* --- the fake netif: net's buffers are not sock.c's business here --------------------------- */

int ip_netif_rx_may_keep(const struct pbuf *p)
{
	(void)p;
	return 1;
}

int ip_netif_rx_stale(const struct pbuf *p)
{
	(void)p;
	return 0;
}

int ip_netif_tx_free(struct netif *n)
{
	(void)n;
	return 1;
}

struct pbuf *ip_netif_udp_pbuf(struct netif *n, u16_t len)
{
	(void)n, (void)len;
	return NULL; /* lwIP's own pbuf; with no route the send is refused, its buffer given back */
}

/* --- the client: its side of the rings ----------------------------------------------------- */

static struct ring tx_ready, tx_done, rx_free, rx_used; /* the client's view */
static uint8_t *tx_area, *rx_area;
static unsigned int refused_puts; /* a put of a buffer just handed back that found no slot */
static unsigned int handed_back;  /* buffers the client put in again at ip's publish */
static unsigned int resend;       /* messages the client still sends again at tx_done's publish */

static void client_rings(void)
{
	size_t bytes = ring_bytes(CAPACITY);
	uint32_t area = CAPACITY * BUF_SIZE;

	for (unsigned int i = 0; i < IP_RINGS; i++)
		ring_format(frame + i * bytes);
	tx_area = frame + IP_RINGS * bytes;
	rx_area = tx_area + area;
	assert_int_equal(ring_producer_init(&tx_ready, frame + IP_RING_TX_READY * bytes, bytes,
					    CAPACITY, area), 0);
	assert_int_equal(ring_consumer_init(&tx_done, frame + IP_RING_TX_DONE * bytes, bytes,
					    CAPACITY, area), 0);
	assert_int_equal(ring_producer_init(&rx_free, frame + IP_RING_RX_FREE * bytes, bytes,
					    CAPACITY, area), 0);
	assert_int_equal(ring_consumer_init(&rx_used, frame + IP_RING_RX_USED * bytes, bytes,
					    CAPACITY, area), 0);
	for (uint32_t i = 0; i < CAPACITY; i++)
		assert_int_equal(ring_put(&rx_free, &(struct ring_desc){ i * BUF_SIZE, BUF_SIZE }),
				 0);
	ring_publish(&rx_free);
}

/* A message (a datagram to the peer) in transmit buffer b, put in tx_ready: ring_put's result. */
static int client_send(uint32_t b)
{
	struct ip_msg m = { .sock = 1, .kind = IP_MSG_DATA, .port = PEER_PORT, .addr = PEER_ADDR,
			    .len = 8 };

	memcpy(tx_area + b * BUF_SIZE, &m, sizeof(m));
	memset(tx_area + b * BUF_SIZE + sizeof(m), 0x5a, m.len);
	return ring_put(&tx_ready, &(struct ring_desc){ b * BUF_SIZE, sizeof(m) + m.len });
}

/* ip published rx_used: every message read, its buffer offered again at once. */
static void client_takes_received(void)
{
	struct ring_desc d;

	while (ring_get(&rx_used, &d) == 1) {
		ring_release(&rx_used);
		if (ring_put(&rx_free, &(struct ring_desc){ d.offset, BUF_SIZE })) {
			refused_puts++;
			continue;
		}
		handed_back++;
		ring_publish(&rx_free);
	}
}

/* ip published tx_done: every buffer back, and while `resend` lasts sent again at once. */
static void client_takes_sent(void)
{
	struct ring_desc d;

	while (ring_get(&tx_done, &d) == 1) {
		ring_release(&tx_done);
		if (!resend)
			continue;
		resend--;
		if (client_send(d.offset / BUF_SIZE)) {
			refused_puts++;
			continue;
		}
		handed_back++;
		ring_publish(&tx_ready);
	}
}

/* ip's publishes, with the client acting right after them (as on another hart). */
int __real_ring_publish(struct ring *r);
int __wrap_ring_publish(struct ring *r);

int __wrap_ring_publish(struct ring *r)
{
	int wake = __real_ring_publish(r);

	if (r == &rx_free || r == &tx_ready)
		return wake; /* the client's own */
	if (r->shared == rx_used.shared)
		client_takes_received();
	else if (r->shared == tx_done.shared)
		client_takes_sent();
	return wake;
}

/* --- ip ----------------------------------------------------------------------------------- */

static struct tacet_service svc;
static struct netif nif;
static struct udp_pcb *bound; /* the client's socket's PCB */

/* lwIP up, one client's session started over the frame, a UDP socket bound to PORT. */
static int setup(void **state)
{
	uint64_t id = 0;
	unsigned long peer = 0;
	size_t bytes = IP_RINGS * ring_bytes(CAPACITY) + 2 * CAPACITY * BUF_SIZE;

	(void)state;
	frame_pages = (bytes + TACET_PAGE_SIZE - 1) / TACET_PAGE_SIZE;
	frame = aligned_alloc(TACET_PAGE_SIZE, frame_pages * TACET_PAGE_SIZE);
	assert_non_null(frame);
	memset(frame, 0, frame_pages * TACET_PAGE_SIZE);
	refused_puts = handed_back = resend = 0;
	lwip_init();
	sock_init(&svc, NTFN, &nif);
	svc.badge = 1;
	client_rings();
	assert_int_equal(ip_serve_open(&svc, PROCESS), 0);
	assert_int_equal(ip_serve_attach(&svc, CAPACITY, BUF_SIZE, AREA), 0);
	assert_int_equal(ip_serve_start(&svc, BITS, CLIENT_NTFN, &peer), 0);
	assert_int_equal(ip_serve_socket(&svc, IP_SOCK_UDP, &id), 0);
	assert_int_equal(id, 1);
	assert_int_equal(ip_serve_bind(&svc, id, 0, PORT), 0);
	for (bound = udp_pcbs; bound && bound->local_port != PORT; bound = bound->next)
		;
	assert_non_null(bound);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	ip_serve_close(&svc, 1);
	free(frame);
	return 0;
}

/* A datagram from the peer, as lwIP's UDP input hands it to the socket's callback. */
static void datagram_in(void)
{
	struct pbuf *p = pbuf_alloc(PBUF_RAW, 16, PBUF_RAM);
	ip_addr_t from = IPADDR4_INIT(lwip_htonl(PEER_ADDR));

	assert_non_null(p);
	memset(p->payload, 0xc3, 16);
	bound->recv(bound->recv_arg, bound, p, &from, PEER_PORT);
}

/* Received datagrams handed over one at a time, each into the client's buffers as they come:
 * every buffer the client gets back can be offered again at once (before, the first found
 * rx_free full: ip took its slot but released it only at its next sock_work). */
static void test_received_buffer_offered_again_at_once(void **state)
{
	(void)state;
	for (unsigned int i = 0; i < 3 * CAPACITY; i++) {
		datagram_in();
		sock_work();
	}
	assert_int_equal(refused_puts, 0);
	assert_int_equal(handed_back, 3 * CAPACITY);
}

/* Every transmit buffer sent at once: each buffer ip gives back can carry the next message at
 * once (before, tx_done was published before tx_ready's slots were released, and the first
 * message sent again found tx_ready full). */
static void test_sent_buffer_sent_again_at_once(void **state)
{
	(void)state;
	for (uint32_t b = 0; b < CAPACITY; b++)
		assert_int_equal(client_send(b), 0);
	ring_publish(&tx_ready);
	resend = 2 * CAPACITY;
	for (unsigned int i = 0; i < 3; i++)
		sock_work();
	assert_int_equal(refused_puts, 0);
	assert_int_equal(handed_back, 2 * CAPACITY);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_received_buffer_offered_again_at_once, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_sent_buffer_sent_again_at_once, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
