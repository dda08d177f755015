/* netpair: a client of two network device services on two NICs of one QEMU hub
 * (tests/qemu/cases_net.py): opens "net0" and "net1" through lib's <tacet/netdev.h> and sends
 * NFRAMES frames of varied lengths (ETH_ZLEN..ETH_FRAME_MAX) from net0's NIC to net1's, at most
 * WINDOW in flight, checking that each arrives once, of its length, every byte as sent; then
 * each service's counts (frames, drops, interrupts per packet). Modes (netpair_mode, defined by
 * the variant's own file; none: MODE_BASIC):
 *   MODE_BASIC    every frame arrives, none dropped.
 *   MODE_HOSTILE  runs beside nethostile, whose lying sessions net1 stops: frames are sent (64
 *                 each HOSTILE_PACE_NS at most) until net1 has stopped HOSTILE_STOPS sessions,
 *                 then NFRAMES more; none may be lost. Frames that come to net0 (the liars')
 *                 are taken and counted apart.
 *   MODE_GRANTED  granted `[net1=receive]`, it opens net1 after netthief's session has started
 *                 there (net1 has sent a frame): every frame must still reach it, none lost.
 *   MODE_KILL     net1 (net_dying) dies mid-stream: lib reaches its next instance and the
 *                 stream goes on; frames in flight at the death may be lost (counted), none
 *                 may arrive twice or altered.
 * Powers the machine off (its entry's `^`), status 0 when every check passed. No IPC protocol
 * of its own. */
#include <stdio.h>
#include <string.h>
#include <tacet.h>
#include <tacet/net_client.h>
#include <tacet/netdev.h>

#define MODE_BASIC   0
#define MODE_HOSTILE 1
#define MODE_KILL    2
#define MODE_GRANTED 3
#define NFRAMES  1000
#define NBUFS    64
#define BUF_SIZE 2048
#define WINDOW   48
#define IRQS_PER_PACKET_MAX_DIV 4 /* MODE_BASIC: fewer interrupts than 1 a 4 packets */
#define BIT_A    1ul
#define BIT_B    2ul
#define BIT_T    4ul /* this side's timer: no progress for TICK_NS */
#define TICK_NS  100000000ull
#define STALL_TICKS 50 /* ticks without progress: the stream is stuck (FAIL) */
#define HOSTILE_STOPS 5 /* servers/tests/nethostile.c's lying sessions */
#define HOSTILE_PACE_NS 5000000ull /* until they are stopped: 64 frames each 5 ms at most */
#define ETHERTYPE_TEST 0x88b5 /* IEEE 802 local experimental */

extern const int netpair_mode __attribute__((weak));

static struct netdev a, b;
static unsigned long ntfn;
static int mode; /* MODE_* */

static unsigned int length_of(uint32_t seq)
{
	return ETH_ZLEN + (seq * 97u) % (ETH_FRAME_MAX - ETH_ZLEN + 1);
}

static uint8_t byte_of(uint32_t seq, unsigned int i)
{
	return (uint8_t)(seq * 31u + i * 7u + (i >> 8));
}

static void frame_fill(uint8_t *f, uint32_t seq)
{
	unsigned int len = length_of(seq);

	memcpy(f, b.mac, ETH_ALEN);
	memcpy(f + ETH_ALEN, a.mac, ETH_ALEN);
	f[12] = ETHERTYPE_TEST >> 8, f[13] = ETHERTYPE_TEST & 0xff;
	memcpy(f + ETH_HLEN, &seq, sizeof(seq));
	for (unsigned int i = ETH_HLEN + 4; i < len; i++)
		f[i] = byte_of(seq, i);
}

/* The frame's sequence number, or -1 if it is not exactly what frame_fill made for it. */
static long frame_check(const uint8_t *f, unsigned int len)
{
	uint32_t seq;

	if (len < ETH_HLEN + 4 || memcmp(f, b.mac, ETH_ALEN) ||
	    memcmp(f + ETH_ALEN, a.mac, ETH_ALEN) ||
	    f[12] != ETHERTYPE_TEST >> 8 || f[13] != (ETHERTYPE_TEST & 0xff))
		return -1;
	memcpy(&seq, f + ETH_HLEN, sizeof(seq));
	if (len != length_of(seq))
		return -1;
	for (unsigned int i = ETH_HLEN + 4; i < len; i++)
		if (f[i] != byte_of(seq, i))
			return -1;
	return seq;
}

#define MAX_SEQ (1u << 18) /* frames a stream sends at most */

struct stream {
	uint32_t sent, next;  /* frames sent; the lowest sequence number not yet received */
	uint32_t got, lost, late, bad, reordered, stalls, stray;
	uint8_t seen[MAX_SEQ / 8];     /* received, or given up for lost (MODE_KILL) */
	uint8_t gave_up[MAX_SEQ / 8];  /* MODE_KILL: given up for lost after a stall */
	uint32_t until;       /* send this many (MODE_HOSTILE: set once the liars are stopped) */
	uint32_t asked_at;    /* MODE_HOSTILE: st->sent when net1's count was last asked */
};

static uint64_t stopped_on(struct netdev *nd)
{
	uint64_t stopped = 0, w[3];

	net_call_errors(nd->ep, &stopped, &w[0], &w[1], &w[2]);
	return stopped;
}

static int bit(const uint8_t *map, long seq)
{
	return map[seq / 8] >> (seq % 8) & 1;
}

/* Take every frame net1 has received; 1 if any came. QEMU's hub may deliver a frame before
 * one sent earlier (a frame that waited in its queue while net1's NIC had no free buffer): the
 * order is counted, not checked. */
static int receive(struct stream *st)
{
	void *f;
	unsigned int len;
	int any = 0;

	while (netdev_rx(&b, &f, &len) == 1) {
		long seq = frame_check(f, len);

		any = 1;
		if (seq < 0 || seq >= st->sent || (bit(st->seen, seq) && !bit(st->gave_up, seq))) {
			st->bad++; /* altered, never sent, or twice */
		} else if (bit(st->seen, seq)) {
			st->late++; /* MODE_KILL: given up for lost, then came */
			st->gave_up[seq / 8] &= (uint8_t)~(1u << (seq % 8));
			st->lost--;
		} else {
			st->reordered += (uint32_t)seq != st->next;
			st->seen[seq / 8] |= (uint8_t)(1u << (seq % 8));
			st->got++;
		}
		while (st->next < st->sent && bit(st->seen, st->next))
			st->next++;
		netdev_rx_done(&b, f);
	}
	while (netdev_rx(&a, &f, &len) == 1) { /* frames to net0 (nethostile's): not the stream's */
		st->stray++;
		netdev_rx_done(&a, f);
	}
	return any;
}

/* Send from net0 while the window and its buffers allow; 1 if any went. */
static int send(struct stream *st)
{
	int any = 0;
	void *f;

	while (st->sent < st->until && st->sent < MAX_SEQ && st->sent - st->next < WINDOW &&
	       (f = netdev_tx_buf(&a))) {
		frame_fill(f, st->sent);
		if (netdev_tx_send(&a, f, length_of(st->sent)))
			break;
		st->sent++;
		any = 1;
	}
	return any;
}

/* Nothing to do: sleep until either service signals, or TICK_NS passes (then ask both whether
 * they live: lib reconnects to a restarted one). In MODE_KILL frames in flight at a death are
 * lost: after a tick without progress the window starts again from what was sent. */
static void idle(struct stream *st)
{
	long bits;

	if (!(netdev_sleep_ok(&a) & netdev_sleep_ok(&b)))
		return;
	tacet_timer_set(ntfn, BIT_T, tacet_time() + tacet_ns_to_ticks(TICK_NS));
	bits = tacet_wait(ntfn);
	if (bits < 0)
		return;
	if (bits & BIT_T) {
		st->stalls++;
		bits |= BIT_A | BIT_B;
		if (mode == MODE_KILL)
			for (; st->next < st->sent; st->next++)
				if (!bit(st->seen, st->next)) {
					st->seen[st->next / 8] |= (uint8_t)(1u << (st->next % 8));
					st->gave_up[st->next / 8] |=
						(uint8_t)(1u << (st->next % 8));
					st->lost++;
				}
	}
	netdev_poll(&a, (unsigned long)bits);
	netdev_poll(&b, (unsigned long)bits);
}

static int stream_run(struct stream *st)
{
	while (st->next < st->until && st->stalls < STALL_TICKS) {
		int progress;

		netdev_poll(&a, 0);
		progress = receive(st) | send(st);
		if (progress)
			st->stalls = 0;
		if (mode == MODE_HOSTILE && st->until == UINT32_MAX && st->sent % 64 == 0 &&
		    st->asked_at != st->sent) {
			st->asked_at = st->sent;
			if (stopped_on(&b) >= HOSTILE_STOPS)
				st->until = st->sent + NFRAMES; /* liars stopped: NFRAMES more */
			else
				tacet_sleep_ns(HOSTILE_PACE_NS); /* 64 frames a pace meanwhile */
		}
		if (!progress)
			idle(st);
	}
	return st->next >= st->until;
}

static uint64_t all_irqs, all_packets; /* both services' */

static int report(const char *name, struct netdev *nd, uint64_t *packets, uint64_t *drops)
{
	uint64_t rx = 0, tx = 0, irqs = 0, dropped = 0;
	long err = net_call_stats(nd->ep, &rx, &tx, &irqs, &dropped);

	if (err) {
		printf("netpair: FAIL: %s's stats: %s\n", name, tacet_strerror(err));
		return 1;
	}
	printf("netpair: %s: %llu received, %llu sent, %llu dropped, %llu interrupts (%llu.%02llu "
	       "a packet)\n", name, (unsigned long long)rx, (unsigned long long)tx,
	       (unsigned long long)dropped, (unsigned long long)irqs,
	       (unsigned long long)(irqs / (rx + tx ? rx + tx : 1)),
	       (unsigned long long)(irqs * 100 / (rx + tx ? rx + tx : 1) % 100));
	*packets = nd == &a ? tx : rx;
	*drops = dropped;
	all_irqs += irqs, all_packets += rx + tx;
	return 0;
}

/* MODE_GRANTED: until net1 has sent a frame (netthief's: its session started first). */
static long thief_started(void)
{
	long ep = tacet_slot_alloc(), err = ep < 0 ? ep : tacet_lookup("net1", (unsigned long)ep,
								 10000);
	uint64_t sent = 0, w[3];

	for (int tries = 0; !err && !sent && tries < 10000; tries++) {
		err = net_call_stats((unsigned long)ep, &w[0], &sent, &w[1], &w[2]);
		if (!err && !sent)
			tacet_sleep_ns(1000000);
	}
	if (ep >= 0)
		tacet_slot_free((unsigned long)ep);
	return err ? err : sent ? 0 : -TACET_ENOENT;
}

int main(void)
{
	int failed = 0, ok;
	static struct stream st = { .until = NFRAMES, .asked_at = UINT32_MAX };
	uint64_t sent = 0, received = 0, drops_a = 0, drops_b = 0;
	long slot = tacet_slot_alloc(), err;

	mode = &netpair_mode ? netpair_mode : MODE_BASIC;
	if (mode == MODE_HOSTILE)
		st.until = UINT32_MAX;
	err = slot < 0 ? slot : tacet_ntfn_new((unsigned long)slot);
	ntfn = (unsigned long)slot;
	if (!err && mode == MODE_GRANTED)
		err = thief_started();
	if (!err)
		err = netdev_open(&a, "net0", NBUFS, BUF_SIZE, ntfn, BIT_A);
	if (!err)
		err = netdev_open(&b, "net1", NBUFS, BUF_SIZE, ntfn, BIT_B);
	if (err) {
		printf("netpair: FAIL: opening net0 and net1: %s\n", tacet_strerror(err));
		return 1;
	}
	printf("netpair: net0 %02x:%02x:%02x:%02x:%02x:%02x, net1 %02x:%02x:%02x:%02x:%02x:%02x, "
	       "links %s and %s\n", a.mac[0], a.mac[1], a.mac[2], a.mac[3], a.mac[4], a.mac[5],
	       b.mac[0], b.mac[1], b.mac[2], b.mac[3], b.mac[4], b.mac[5], a.link ? "up" : "down",
	       b.link ? "up" : "down");
	ok = stream_run(&st);
	ok = ok && !st.bad && (mode == MODE_KILL ? b.reconnects >= 1 : !st.lost && !st.late);
	printf("netpair: %u frames of %u to %u bytes sent, %u received once each, every byte as "
	       "sent, %u lost, %u late, %u wrong (%u before an earlier one): %s\n", st.sent,
	       ETH_ZLEN, ETH_FRAME_MAX, st.got, st.lost, st.late, st.bad, st.reordered,
	       ok ? "PASS" : "FAIL");
	failed |= !ok;
	if (mode == MODE_KILL)
		printf("netpair: net1 ended mid-stream, %lu reconnect(s), now instance %lu: %s\n",
		       b.reconnects, b.instance, b.reconnects ? "PASS" : "FAIL");
	failed |= report("net0", &a, &sent, &drops_a) | report("net1", &b, &received, &drops_b);
	ok = mode == MODE_KILL || (sent >= st.sent && received >= st.got && !drops_b);
	printf("netpair: the services' counts agree (net0 sent >= %u, net1 received >= %u, none "
	       "dropped): %s\n", st.sent, st.got, ok ? "PASS" : "FAIL");
	failed |= !ok;
	if (mode == MODE_BASIC || mode == MODE_GRANTED) { /* few interrupts while frames come */
		ok = all_irqs * IRQS_PER_PACKET_MAX_DIV < all_packets;
		printf("netpair: %llu interrupts for %llu packets at %u in flight, under 1 in %u: "
		       "%s\n",
		       (unsigned long long)all_irqs, (unsigned long long)all_packets, WINDOW,
		       IRQS_PER_PACKET_MAX_DIV, ok ? "PASS" : "FAIL");
		failed |= !ok;
	}
	netdev_close(&a);
	netdev_close(&b);
	printf("netpair: %s\n", failed ? "FAIL" : "all checks passed");
	tacet_poweroff(failed);
	return failed;
}
