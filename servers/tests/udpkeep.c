/* udpkeep: the echo service's UDP half (servers/echo) that reads nothing until ip has reached a
 * new instance of its network driver (IP_BUFFERS' reattached; tests/qemu/cases_ip.py,
 * ip-udp-held-net-dies). Until then the datagrams for UDP port 7 fill its receive buffers and
 * then ip's socket queue, in place in net's receive buffers, so that ip holds as many of them
 * as it may when net dies and still holds them when it reattaches. Then every datagram goes
 * back to its sender, as echo's. Publishes "udpkeep" (an endpoint no one calls) once bound, so
 * that the test's client sends only then. Asks ip every KEEP_POLL_NS while it keeps (ip
 * announces no reattachment). One thread; prints through the kernel's debug output. */
#include <stdio.h>
#include <tacet.h>
#include <tacet/ip_client.h>
#include <tacet/net.h>

#define ECHO_PORT    7
#define NTFN_BIT     1ul
#define KEEP_POLL_NS 1000000ull

static struct tacet_net n;
static uint8_t buf[2048];

static void fail(const char *what, long err)
{
	printf("udpkeep: %s: %s\n", what, tacet_strerror(err));
	tacet_exit(1);
}

/* Until ip says it reached net's next instance. */
static void keep(unsigned long ip_ep)
{
	uint64_t held, rx_stale, tx_stale, reattached = 0;
	long err;

	while (!reattached) {
		err = ip_call_buffers(ip_ep, &held, &rx_stale, &tx_stale, &reattached);
		if (err)
			fail("IP_BUFFERS", err);
		if (!reattached)
			tacet_sleep_ns(KEEP_POLL_NS);
	}
	printf("udpkeep: ip reached net's next instance (%llu datagrams dropped as held over net's "
	       "end so far, %llu of net's buffers held); echoing\n", (unsigned long long)rx_stale,
	       (unsigned long long)held);
}

int main(void)
{
	long slot = tacet_slot_alloc(), ip = tacet_slot_alloc(), ep = tacet_slot_alloc(), err,
	     udp = 0;

	err = slot < 0 ? slot : ip < 0 ? ip : ep < 0 ? ep : tacet_ntfn_new((unsigned long)slot);
	if (!err)
		err = tacet_endpoint_new((unsigned long)ep);
	if (!err)
		err = tacet_lookup("ip", (unsigned long)ip, 10000);
	if (!err)
		err = tacet_net_open(&n, 64, 2048, (unsigned long)slot, NTFN_BIT);
	if (err)
		fail("open a session with ip", err);
	if ((udp = tacet_net_socket(&n, IP_SOCK_UDP)) < 0 ||
	    (err = tacet_net_bind(&n, udp, 0, ECHO_PORT)))
		fail("udp socket", udp < 0 ? udp : err);
	if ((err = tacet_publish("udpkeep", (unsigned long)ep, TACET_RIGHT_WRITE)))
		fail("publish", err);
	printf("udpkeep: UDP port 7 bound; reading nothing until ip reattaches to net\n");
	keep((unsigned long)ip);
	for (;;) {
		uint32_t addr;
		uint16_t port;
		long len = tacet_net_recv(&n, udp, buf, sizeof(buf), 0, &addr, &port);

		if (len < 0 || (len = tacet_net_send(&n, udp, buf, (size_t)len, addr, port)) < 0)
			fail("udp echo", len);
	}
}
