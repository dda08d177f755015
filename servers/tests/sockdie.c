/* sockdie: a socket client that ends holding sockets (tests/qemu/cases_ip.py,
 * sock-client-dies, beside sockheir): it binds UDP and TCP port 2007 (listening) and a third
 * socket, waits until sockheir has seen the port taken (sockheir then binds UDP port HEIR_PORT,
 * which a bind here finds taken: ip answers no call during the ping, so sockheir would
 * otherwise find the port already free), starts a thread whose ping of an address nobody has
 * keeps ip waiting inside that call for 2 s, and 300 ms later ends without closing anything:
 * ip learns of the end while it waits in the ping, not in its service loop. Prints through the
 * kernel's debug output. */
#include <stdio.h>
#include <tacet.h>
#include <tacet/ip.h>
#include <tacet/net.h>

#define PORT       2007
#define HEIR_PORT  2008 /* sockheir's: bound once it has seen PORT taken */
#define NOBODY     0x0a000263 /* 10.0.2.99: no one answers ARP for it on QEMU's user network */
#define STACK_SIZE 16384

static struct tacet_net n;

/* The second thread: one ping that ip waits 2 s for (the lib client is connected already). */
static void pinger(void *arg)
{
	struct tacet_ip_ping r;

	(void)arg;
	tacet_ip_ping(NOBODY, 1, 2000, &r);
}

/* Once ip has its lease (a ping before it is refused at once), the pinger started. */
static long start_pinger(void)
{
	struct tacet_ip_info info = { 0 };
	struct tacet_dma stack;
	long err;

	while (!(err = tacet_ip_info(&info)) && !info.addr)
		tacet_sleep_ns(10000000);
	if (!err)
		err = tacet_dma_alloc(STACK_SIZE, &stack);
	if (!err) {
		err = tacet_thread_start(pinger, NULL, (unsigned long)stack.va + STACK_SIZE,
					 TACET_SCHED(100, 0));
		err = err < 0 ? err : 0;
	}
	return err;
}

/* UDP and a listening TCP socket on PORT, and one more TCP socket: 0 or the first error. */
static long take_port(void)
{
	long udp = tacet_net_socket(&n, IP_SOCK_UDP), tcp = tacet_net_socket(&n, IP_SOCK_TCP);
	long spare = tacet_net_socket(&n, IP_SOCK_TCP), err;

	if (udp < 0 || tcp < 0 || spare < 0)
		return udp < 0 ? udp : tcp < 0 ? tcp : spare;
	err = tacet_net_bind(&n, udp, 0, PORT);
	if (!err)
		err = tacet_net_bind(&n, tcp, 0, PORT);
	return err ? err : tacet_net_listen(&n, tcp);
}

/* Until sockheir holds HEIR_PORT (a bind here finds it taken): 0, or an error. A bind that
 * succeeds is let go at once, for sockheir to take. */
static long await_heir(void)
{
	for (;;) {
		long s = tacet_net_socket(&n, IP_SOCK_UDP), err;

		if (s < 0)
			return s;
		err = tacet_net_bind(&n, s, 0, HEIR_PORT);
		tacet_net_sock_close(&n, s);
		if (err == -TACET_EEXIST)
			return 0;
		if (err)
			return err;
		tacet_sleep_ns(10000000);
	}
}

int main(void)
{
	long slot = tacet_slot_alloc(), err = slot < 0 ? slot : tacet_ntfn_new((unsigned long)slot);

	if (!err)
		err = tacet_net_open(&n, 4, 512, (unsigned long)slot, 1);
	if (!err)
		err = take_port();
	printf("sockdie: UDP and TCP port %d bound, listening: %s\n", PORT, tacet_strerror(err));
	if (!err)
		err = await_heir();
	if (!err)
		err = start_pinger();
	tacet_sleep_ns(300000000);
	printf("sockdie: ending with its sockets open, ip waiting in a ping: %s\n",
	       tacet_strerror(err));
	return 0;
}
