/* nethostile: a client of "net1" that lies in its rings (tests/qemu/cases_net.py, net-hostile),
 * while netpair_hostile streams frames into net1 beside it. Each lie is told in a session of
 * its own, opened with lib's netdev_open and then written over by hand: a tx_ready tail far
 * ahead of its head; a descriptor outside the transmit area; a frame without headroom; a frame
 * longer than Ethernet's; a buffer sent again while every buffer waits, unconsumed, in a full
 * tx_done (net finds no room to give it back). It opens its first session once net1 has handed
 * netpair_hostile's session a frame (that session must stay the receiver). After each, the
 * service's count of stopped sessions must go up by one (asked until it does), and the session
 * is closed. Exits 0 when every lie was stopped. No IPC protocol of its own. */
#include <stdio.h>
#include <string.h>
#include <tacet.h>
#include <tacet/net_client.h>
#include <tacet/netdev.h>

#define NBUFS    8
#define BUF_SIZE 2048
#define ASK_TRIES 10000 /* 1 ms apart */

static unsigned long ntfn;

static uint64_t stopped_on(struct netdev *nd)
{
	uint64_t stopped = 0, w[3];

	net_call_errors(nd->ep, &stopped, &w[0], &w[1], &w[2]);
	return stopped;
}

/* Put d into nd's tx_ready by hand (no check on this side) and publish it with tail. */
static void put_raw(struct netdev *nd, struct ring_desc d, uint32_t tail)
{
	struct ring *r = &nd->tx_ready;

	((volatile struct ring_desc *)r->desc)[r->own & (r->capacity - 1)] = d;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	*(volatile uint32_t *)r->shared = tail;
}

enum lie { TAIL_AHEAD, OUTSIDE, NO_HEADROOM, TOO_LONG, TWICE, LIES };

static const char *const told[LIES] = {
	"a tx_ready tail 1000 ahead", "a descriptor outside the transmit area",
	"a frame without headroom", "a frame of 1600 bytes",
	"a buffer sent twice, tx_done never consumed",
};

static void lie(struct netdev *nd, enum lie which)
{
	uint32_t own = nd->tx_ready.own, area = nd->nbufs * nd->buf_size;
	uint8_t frame[ETH_ZLEN] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };

	switch (which) {
	case TAIL_AHEAD:
		put_raw(nd, (struct ring_desc){ NETDEV_FRAME_OFFSET, ETH_ZLEN }, own + 1000);
		break;
	case OUTSIDE:
		put_raw(nd, (struct ring_desc){ area - 10, 100 }, own + 1);
		break;
	case NO_HEADROOM:
		put_raw(nd, (struct ring_desc){ 4, ETH_ZLEN }, own + 1);
		break;
	case TOO_LONG:
		put_raw(nd, (struct ring_desc){ NETDEV_FRAME_OFFSET, 1600 }, own + 1);
		break;
	case TWICE: /* every buffer sent, tx_done left full; then buffer 0 again */
		memcpy(frame + ETH_ALEN, nd->mac, ETH_ALEN);
		while (netdev_tx(nd, frame, sizeof(frame)) == 0)
			;
		for (int tries = 0; *(volatile uint32_t *)nd->tx_done.shared != nd->nbufs &&
				    tries < ASK_TRIES; tries++)
			tacet_sleep_ns(1000000);
		put_raw(nd, (struct ring_desc){ NETDEV_FRAME_OFFSET, ETH_ZLEN },
			nd->tx_ready.own + 1);
		break;
	default:
		return;
	}
	tacet_signal(nd->peer, 1);
}

static int tell(enum lie which)
{
	struct netdev nd;
	uint64_t before;
	long err = netdev_open(&nd, "net1", NBUFS, BUF_SIZE, ntfn, 1);
	int tries = 0, ok;

	if (err) {
		printf("nethostile: FAIL: open: %s\n", tacet_strerror(err));
		return 1;
	}
	before = stopped_on(&nd);
	lie(&nd, which);
	while (stopped_on(&nd) == before && ++tries < ASK_TRIES)
		tacet_sleep_ns(1000000);
	ok = stopped_on(&nd) == before + 1;
	printf("nethostile: %s: the session stopped, counted: %s\n", told[which],
	       ok ? "PASS" : "FAIL");
	netdev_close(&nd);
	return !ok;
}

/* Wait until net1 has handed its receiver a frame of the stream: netpair_hostile's session is
 * then started and the receiver (net1's earliest started), which no later session displaces;
 * a liar whose session started first would receive what the stream sends. */
static int receiver_open(void)
{
	long ep = tacet_slot_alloc();
	uint64_t received = 0, w[3];

	if (ep < 0 || tacet_lookup("net1", (unsigned long)ep, ASK_TRIES))
		return 0;
	for (int tries = 0; !received && tries < ASK_TRIES; tries++) {
		net_call_stats((unsigned long)ep, &received, &w[0], &w[1], &w[2]);
		if (!received)
			tacet_sleep_ns(1000000);
	}
	tacet_slot_free((unsigned long)ep);
	return received != 0;
}

int main(void)
{
	long slot = tacet_slot_alloc();
	int failed = 0;

	if (slot < 0 || tacet_ntfn_new((unsigned long)slot)) {
		printf("nethostile: FAIL: no notification\n");
		return 1;
	}
	ntfn = (unsigned long)slot;
	if (!receiver_open()) {
		printf("nethostile: FAIL: net1 has received nothing\n");
		return 1;
	}
	for (int which = 0; which < LIES; which++)
		failed |= tell((enum lie)which);
	printf("nethostile: %s\n", failed ? "FAIL" : "all checks passed");
	return failed;
}
