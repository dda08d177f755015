/* echo: the echo service (RFC 862) over lib's sockets (<tacet/net.h>; init.run= `echo`, after
 * `ip`): UDP and TCP port ECHO_PORT, every datagram back to its sender, every connection's bytes
 * back until it closes (up to IP_SOCKETS_MAX - 2 connections at once: the session's quota).
 * One thread waits for whichever socket has something (tacet_net_ready); a send waits for the
 * session's transmit buffers, so a connection that is not read from slows the others. No IPC
 * protocol of its own. Prints through the kernel's debug output. */
#include <stdio.h>
#include <tacet.h>
#include <tacet/net.h>

#define ECHO_PORT 7
#define NTFN_BIT      1ul

static struct tacet_net n;
static uint8_t buf[8192];

static void fail(const char *what, long err)
{
	printf("echo: %s: %s\n", what, tacet_strerror(err));
	tacet_exit(1);
}

/* One thing for socket s: a datagram, a connection, a connection's bytes or its end. */
static void serve(long s, long udp, long tcp, unsigned long *bytes)
{
	uint32_t addr;
	uint16_t port;
	long len, c;

	if (s == udp) {
		len = tacet_net_recv(&n, udp, buf, sizeof(buf), 0, &addr, &port);
		if (len < 0 || (len = tacet_net_send(&n, udp, buf, (size_t)len, addr, port)) < 0)
			fail("udp echo", len);
	} else if (s == tcp) {
		if ((c = tacet_net_accept(&n, tcp, 0)) < 0)
			fail("accept", c);
		printf("echo: connection %ld accepted\n", c);
		bytes[c] = 0;
	} else if ((len = tacet_net_recv(&n, s, buf, sizeof(buf), 0, NULL, NULL)) > 0) {
		if ((len = tacet_net_send(&n, s, buf, (size_t)len, 0, 0)) < 0)
			fail("tcp echo", len);
		bytes[s] += (unsigned long)len;
	} else {
		printf("echo: connection %ld closed after %lu bytes echoed\n", s, bytes[s]);
		tacet_net_sock_close(&n, s);
	}
}

int main(void)
{
	long slot = tacet_slot_alloc(), err = slot < 0 ? slot : tacet_ntfn_new((unsigned long)slot);
	long udp = 0, tcp = 0;
	unsigned long bytes[IP_SOCKETS_MAX + 1] = { 0 };

	if (!err)
		err = tacet_net_open(&n, 64, 4096, (unsigned long)slot, NTFN_BIT);
	if (err)
		fail("open a session with ip", err);
	if ((udp = tacet_net_socket(&n, IP_SOCK_UDP)) < 0 ||
	    (err = tacet_net_bind(&n, udp, 0, ECHO_PORT)))
		fail("udp socket", udp < 0 ? udp : err);
	if ((tcp = tacet_net_socket(&n, IP_SOCK_TCP)) < 0 ||
	    (err = tacet_net_bind(&n, tcp, 0, ECHO_PORT)) || (err = tacet_net_listen(&n, tcp)))
		fail("tcp socket", tcp < 0 ? tcp : err);
	printf("echo: echoing on UDP and TCP port %d\n", ECHO_PORT);
	for (;;) {
		long s = tacet_net_ready(&n, 0);

		if (s < 0)
			fail("wait", s);
		serve(s, udp, tcp, bytes);
	}
}
