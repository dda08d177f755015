/* test_net.c: host test of lib/net.c (the client sockets of <tacet/net.h>) against a fake kernel
 * and a fake ip: the test plays ip's side of the session's four rings (lib/ring.c) over the
 * frame the client allocated, and answers its calls. One thread: the fake ip acts when the
 * client waits (tacet_wait), as the real one would while the client sleeps.
 *
 * What it checks: a send that finds every transmit buffer with ip sleeps until ip gives one
 * back, even while received messages wait in rx_used (a send takes none of them: they must
 * not keep it awake). A client that spun there instead kept its hart from ip wherever they
 * share one, and under -icount every other hart, until a timer fired. A send that never
 * returns is caught by a watchdog (SIGALRM), which fails the test with what it means. A
 * received buffer that finds no slot in rx_free when it is given back is an error the
 * client's call says, not a buffer lost without a word. */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <tacet.h>
#include <tacet/ip_proto.h>
#include <tacet/net.h>
#include <tacet/ring.h>

#define CAPACITY 4
#define BUF_SIZE 256
#define NTFN     5
#define BITS     1ul
#define SOCK     1

/* --- the fake kernel ----------------------------------------------------------------------- */

static unsigned long waits, signals;
static void (*on_wait)(void); /* what ip does while the client sleeps */

long tacet_signal(unsigned long ntfn, unsigned long bits)
{
	(void)ntfn;
	(void)bits;
	signals++;
	return 0;
}

long tacet_wait(unsigned long ntfn)
{
	assert_int_equal(ntfn, NTFN);
	waits++;
	if (on_wait)
		on_wait();
	return (long)BITS;
}

long tacet_timer_set(unsigned long ntfn, unsigned long badge, unsigned long deadline)
{
	(void)ntfn, (void)badge, (void)deadline;
	return 0;
}

uint64_t tacet_time(void)
{
	return 1000;
}

uint64_t tacet_ns_to_ticks(uint64_t ns)
{
	return ns / 100;
}

long tacet_sleep_ns(uint64_t ns)
{
	(void)ns;
	return 0;
}

long tacet_lookup(const char *name, unsigned long dst, unsigned int tries)
{
	(void)name, (void)dst, (void)tries;
	return 0;
}

long tacet_cap_info(unsigned long slot, unsigned long *rights, unsigned long *badge)
{
	(void)slot, (void)rights, (void)badge;
	return 0;
}

/* ip's calls: every set-up call succeeds; START replies with a capability (ip's badged
 * notification), SOCKET with socket SOCK. */
long tacet_call_cap(unsigned long ep, struct tacet_msg *msg, unsigned long reply_slot)
{
	unsigned long label = TACET_TAG_LABEL(msg->tag);

	(void)ep, (void)reply_slot;
	msg->tag = label == IP_START ? TACET_TAG_CAP(0, 1, 0) : TACET_TAG(0, 1);
	msg->w[0] = label == IP_SOCKET ? SOCK : 0;
	return 0;
}

/* --- the fake ip: its side of the rings ---------------------------------------------------- */

static struct tacet_net n;
static struct ring tx_ready, tx_done, rx_free, rx_used; /* ip's view */

static void ip_attach(void)
{
	size_t bytes = ring_bytes(CAPACITY);
	uint32_t area = CAPACITY * BUF_SIZE;
	uint8_t *m = n.mem.va;

	assert_int_equal(ring_consumer_init(&tx_ready, m + IP_RING_TX_READY * bytes, bytes,
					    CAPACITY, area), 0);
	assert_int_equal(ring_producer_init(&tx_done, m + IP_RING_TX_DONE * bytes, bytes,
					    CAPACITY, area), 0);
	assert_int_equal(ring_consumer_init(&rx_free, m + IP_RING_RX_FREE * bytes, bytes,
					    CAPACITY, area), 0);
	assert_int_equal(ring_producer_init(&rx_used, m + IP_RING_RX_USED * bytes, bytes,
					    CAPACITY, area), 0);
}

/* ip takes every message the client sent; returns how many (their buffers it keeps). */
static unsigned int ip_take_sent(struct ring_desc *kept)
{
	unsigned int got = 0;

	while (ring_get(&tx_ready, &kept[got]) == 1)
		got++;
	ring_release(&tx_ready);
	return got;
}

/* ip hands the client a datagram of len bytes for SOCK in a buffer the client offered. */
static void ip_deliver(uint32_t len)
{
	struct ring_desc d;
	struct ip_msg m = { .sock = SOCK, .kind = IP_MSG_DATA, .port = 7, .addr = 0x0a000001,
			    .len = len };

	assert_int_equal(ring_get(&rx_free, &d), 1);
	ring_release(&rx_free);
	memcpy(n.rx_area + d.offset, &m, sizeof(m));
	memset(n.rx_area + d.offset + sizeof(m), 0xab, len);
	d.len = sizeof(m) + len;
	assert_int_equal(ring_put(&rx_used, &d), 0);
	ring_publish(&rx_used);
}

static struct ring_desc kept[CAPACITY];

/* While the client sleeps: ip has sent the oldest message and gives its buffer back. */
static void ip_gives_one_back(void)
{
	assert_int_equal(ring_put(&tx_done, &(struct ring_desc){ kept[0].offset, BUF_SIZE }), 0);
	ring_publish(&tx_done);
	on_wait = NULL;
}

static void spun(int sig)
{
	(void)sig;
	static const char why[] = "test_net: tacet_net_send never returned: it spun waiting for a "
				  "transmit buffer while a received message waited, never sleeping "
				  "(the fake ip gives one back only while the client sleeps)\n";
	if (write(2, why, sizeof(why) - 1) < 0)
		_exit(2);
	_exit(1);
}

static int setup(void **state)
{
	(void)state;
	waits = signals = 0;
	on_wait = NULL;
	assert_int_equal(tacet_net_open(&n, CAPACITY, BUF_SIZE, NTFN, BITS), 0);
	ip_attach();
	assert_int_equal(tacet_net_socket(&n, IP_SOCK_UDP), SOCK);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	tacet_net_close(&n);
	return 0;
}

/* Every transmit buffer with ip and a datagram received, unread: the next send sleeps once
 * (tacet_wait), and goes out when ip gives a buffer back meanwhile. */
static void test_send_sleeps_for_a_buffer_while_rx_waits(void **state)
{
	static const char data[] = "echo";

	(void)state;
	for (int i = 0; i < CAPACITY; i++)
		assert_int_equal(tacet_net_send(&n, SOCK, data, 4, 0x0a000001, 7), 4);
	assert_int_equal(ip_take_sent(kept), CAPACITY);
	ip_deliver(16);
	on_wait = ip_gives_one_back;
	signal(SIGALRM, spun);
	alarm(10);
	assert_int_equal(tacet_net_send(&n, SOCK, data, 4, 0x0a000001, 7), 4);
	alarm(0);
	assert_int_equal(waits, 1);
	assert_int_equal(ip_take_sent(kept), 1);
}

/* The datagram received while the send waited is still there for a recv. */
static void test_recv_after_the_wait(void **state)
{
	uint8_t buf[64];
	uint32_t addr = 0;
	uint16_t port = 0;

	test_send_sleeps_for_a_buffer_while_rx_waits(state);
	assert_int_equal(tacet_net_recv(&n, SOCK, buf, sizeof(buf), 0, &addr, &port), 16);
	assert_int_equal(addr, 0x0a000001);
	assert_int_equal(port, 7);
	assert_int_equal(buf[15], 0xab);
}

/* An ip that hands a datagram over before it releases the rx_free slot its buffer came by
 * (ring.h, "Buffers handed back"): the client's four buffers were all offered, so giving this
 * one back finds rx_free full. recv says so (-TACET_EFAULT) rather than dropping the buffer
 * without a word (before: 16, and the client had one receive buffer fewer for good). */
static void test_recv_says_when_its_buffer_finds_no_slot(void **state)
{
	struct ip_msg m = { .sock = SOCK, .kind = IP_MSG_DATA, .port = 7, .addr = 0x0a000001,
			    .len = 16 };
	struct ring_desc d;
	uint8_t buf[64];

	(void)state;
	assert_int_equal(ring_get(&rx_free, &d), 1); /* taken, its slot not released */
	memcpy(n.rx_area + d.offset, &m, sizeof(m));
	d.len = sizeof(m) + m.len;
	assert_int_equal(ring_put(&rx_used, &d), 0);
	ring_publish(&rx_used);
	assert_int_equal(tacet_net_recv(&n, SOCK, buf, sizeof(buf), 0, NULL, NULL), -TACET_EFAULT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_send_sleeps_for_a_buffer_while_rx_waits, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_recv_after_the_wait, setup, teardown),
		cmocka_unit_test_setup_teardown(test_recv_says_when_its_buffer_finds_no_slot, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
