/* sockhostile: a client of ip's sockets that lies in its rings (tests/qemu/cases_ip.py,
 * sock-hostile), beside the echo service serving a host client. Each lie in a session of its own, opened
 * with lib's tacet_net_open and written over by hand: a tx_ready tail far ahead of its head; a
 * descriptor outside the transmit area. ip must stop that session (its calls then say
 * -TACET_EFAULT) and go on serving the others. A message with a lying header (no such socket)
 * is dropped and counted, its buffer given back, the session not stopped. Exits 0 when every
 * check passed. No IPC protocol of its own. */
#include <stdio.h>
#include <tacet.h>
#include <tacet/net.h>

#define ASK_TRIES 5000 /* 1 ms apart */

static struct tacet_net n;
static unsigned long ntfn;
static int failed;

/* d into n's tx_ready by hand (no check on this side), published with tail. */
static void put_raw(struct ring_desc d, uint32_t tail)
{
	struct ring *r = &n.tx_ready;

	((volatile struct ring_desc *)r->desc)[r->own & (r->capacity - 1)] = d;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	*(volatile uint32_t *)r->shared = tail;
	tacet_signal(n.peer, 1);
}

/* Until a call on the session says `want` (a bind on a socket that does not exist: ip says
 * -TACET_EINVAL while the session lives, -TACET_EFAULT once stopped). */
static int session_says(long want)
{
	for (int i = 0; i < ASK_TRIES; i++) {
		if (tacet_net_bind(&n, IP_SOCKETS_MAX, 0, 1) == want)
			return 1;
		tacet_sleep_ns(1000000);
	}
	return 0;
}

static void check(const char *what, int ok)
{
	printf("sockhostile: %s: %s\n", what, ok ? "PASS" : "FAIL");
	failed |= !ok;
}

static void open_session(void)
{
	long err = tacet_net_open(&n, 8, 512, ntfn, 1);

	if (err) {
		printf("sockhostile: cannot open a session with ip: %s\n", tacet_strerror(err));
		tacet_exit(1);
	}
}

int main(void)
{
	long slot = tacet_slot_alloc(), sock;
	const uint32_t area = 8 * 512;

	if (slot < 0 || tacet_ntfn_new((unsigned long)slot))
		return 1;
	ntfn = (unsigned long)slot;

	open_session();
	put_raw((struct ring_desc){ 0, 64 }, n.tx_ready.own + 1000);
	check("a tx_ready tail 1000 ahead stops the session", session_says(-TACET_EFAULT));
	tacet_net_close(&n);

	open_session();
	put_raw((struct ring_desc){ area + 4096, 64 }, n.tx_ready.own + 1);
	check("a descriptor outside the transmit area stops the session",
	      session_says(-TACET_EFAULT));
	tacet_net_close(&n);

	open_session();
	sock = tacet_net_socket(&n, IP_SOCK_UDP);
	check("a new session after them works", sock > 0);
	/* a message for socket 7, which does not exist: its buffer comes back, nothing else */
	{
		struct ip_msg m = { .sock = 7, .kind = IP_MSG_DATA, .len = 4 };
		struct ring_desc d;
		int back = 0;

		__builtin_memcpy(n.tx_area, &m, sizeof(m));
		ring_put(&n.tx_ready, &(struct ring_desc){ 0, sizeof(m) + 4 });
		ring_publish(&n.tx_ready);
		tacet_signal(n.peer, 1);
		for (int i = 0; i < ASK_TRIES && !back; i++) {
			back = ring_get(&n.tx_done, &d) == 1 && d.offset == 0;
			if (!back)
				tacet_sleep_ns(1000000);
		}
		check("a message for no socket is dropped, its buffer given back", back);
		check("and the session goes on", session_says(-TACET_EINVAL));
	}
	printf("sockhostile: %s\n", failed ? "some checks failed" : "all checks passed");
	return failed;
}
