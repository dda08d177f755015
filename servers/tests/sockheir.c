/* sockheir: sockdie's heir (tests/qemu/cases_ip.py, sock-client-dies): waits until UDP port
 * 2007 is taken (sockdie bound it), says so by binding UDP port HEIR_PORT (sockdie waits for
 * that before it keeps ip busy and ends), then until it and TCP port 2007 can be bound here, which
 * only happens once ip has ended the dead sockdie's session and freed its sockets; a session of
 * its own (another badge), so nothing but that end frees them. Then it powers the machine off.
 * Prints through the kernel's debug output. */
#include <stdio.h>
#include <tacet.h>
#include <tacet/net.h>

#define PORT    2007
#define HEIR_PORT 2008 /* bound once PORT was seen taken: sockdie's signal to go on */
#define FREE_NS 20000000000ull /* how long ip may take to free them once sockdie has them */

static struct tacet_net n;

/* A socket of type bound to port: its id, or the bind's error (the socket closed). */
static long try_bind_port(int type, uint16_t port)
{
	long s = tacet_net_socket(&n, type), err;

	if (s < 0)
		return s;
	err = tacet_net_bind(&n, s, 0, port);
	if (err)
		tacet_net_sock_close(&n, s);
	return err ? err : s;
}

static long try_bind(int type)
{
	return try_bind_port(type, PORT);
}

int main(void)
{
	long slot = tacet_slot_alloc(), err = slot < 0 ? slot : tacet_ntfn_new((unsigned long)slot);
	int taken = 0, freed = 0;
	uint64_t deadline = 0;

	if (!err)
		err = tacet_net_open(&n, 4, 512, (unsigned long)slot, 1);
	/* until sockdie has the port (the case's timeout bounds it), then until it is free again,
	 * FREE_NS at most */
	while (!err && !freed && (!deadline || tacet_time_ns() < deadline)) {
		long r = try_bind(IP_SOCK_UDP);

		if (r == -TACET_EEXIST && !taken) {
			taken = 1;
			while (try_bind_port(IP_SOCK_UDP, HEIR_PORT) == -TACET_EEXIST)
				tacet_sleep_ns(10000000); /* sockdie's look at it holds it a moment */
			deadline = tacet_time_ns() + FREE_NS;
		}
		freed = taken && r > 0;
		if (r > 0 && !taken) /* sockdie has not bound it yet: leave it to it */
			tacet_net_sock_close(&n, r);
		if (!freed)
			tacet_sleep_ns(10000000);
	}
	if (freed && (err = try_bind(IP_SOCK_TCP)) > 0)
		err = 0;
	printf("sockheir: port %d taken by sockdie, then free after its end: %s%s%s\n", PORT,
	       taken && freed && !err ? "PASS" : "FAIL", err ? ": " : "",
	       err ? tacet_strerror(err) : "");
	tacet_poweroff(taken && freed && !err ? 0 : 1);
	return 1;
}
