/* udpheld: UDP datagrams the IP stack holds in the network driver's buffers when the driver
 * dies (tests/qemu/cases_ip.py, ip-udp-held-net-dies). A raw client of "net1"
 * (servers/bench/rawudp.h) on the hub of ip_static's card (servers/ip at UDP_BENCH_IP_ADDR;
 * net0 is net_dying, whose first instance faults once it has handed ip 300 frames) sends
 * datagrams to UDP port 7 as fast as net1 takes them. The port's owner, udpkeep, reads nothing
 * until ip has reached net0's next instance, so that ip's socket queue is full, 96 of them in
 * place in net0's receive buffers, when net0 dies. The next instance is offered every buffer
 * again and fills them with the flood's later frames: a datagram ip held over the death must
 * be dropped (IP_BUFFERS' rx_stale), never read. Datagram seq's payload is its number, then
 * bytes that depend on it, its length too: every echo must be one datagram sent, byte for
 * byte, and come once (one read from a refilled buffer is another datagram's bytes at the old
 * one's length, or a copy of one). The client learns of the death from net0's endpoint
 * (-TACET_EDEAD) and of ip's reattachment from IP_BUFFERS, asked every CHECK_EVERY datagrams;
 * it floods AFTER more, lets the stream drain, sends probes until one is echoed, then FRESH
 * datagrams at WINDOW in flight: every one must come back. Last, ip's counters: datagrams
 * dropped as held over the death, no more than were lost, among IP_COUNTS' dropped; none of
 * net0's buffers held at the end. Exits asking init to power off (status 0 when every check
 * passed). One thread; no IPC protocol of its own. */
#include <stdio.h>
#include <string.h>
#include <tacet.h>
#include <tacet/driver.h>
#include <tacet/ip_client.h>
#include <tacet/net_client.h>
#include <tacet/netdev.h>

#include "../bench/rawudp.h"
#include "../bench/udp.h"

#define WINDOW      256
#define FRESH       1000
#define SEQ_MAX     (1u << 16) /* datagrams in all, at most */
#define PAYLOAD_MIN 16
#define PAYLOAD_MAX 1040
#define NET_BIT     1ul
#define TIMER_BIT   2ul
#define CHECK_EVERY 64            /* datagrams sent between two looks at net0 */
#define AFTER       512           /* datagrams sent once ip has reached net0's next instance */
#define DRAIN_NS    200000000ull  /* no echo and no frame into ip for this long: drained */
#define PROBE_NS    100000000ull  /* a probe without its echo: another */
#define STALL_NS    10000000000ull /* nothing at all for this long after the death: failed */

static struct netdev d;
static struct rawudp peer = { .nd = &d, .addr = UDP_BENCH_CLIENT_ADDR,
			       .peer_addr = UDP_BENCH_IP_ADDR, .port = UDP_BENCH_CLIENT_PORT,
			       .peer_port = UDP_BENCH_ECHO_PORT };
static unsigned long ntfn, ip_ep, net0_ep;
static uint8_t seen[SEQ_MAX];
static uint32_t sent, echoed, wrong, twice;

static unsigned int len_of(uint32_t seq)
{
	return PAYLOAD_MIN + (seq * 97u) % (PAYLOAD_MAX - PAYLOAD_MIN + 1);
}

/* Datagram seq's payload (len_of(seq) bytes). */
static void payload_of(uint32_t seq, uint8_t *p)
{
	rawudp_put32(p, seq);
	for (unsigned int i = 4; i < len_of(seq); i++)
		p[i] = (uint8_t)(seq * 131u + i * 7u + (seq >> 8));
}

/* Datagram seq out, waiting for a transmit buffer if none is free. */
static void send_seq(uint32_t seq)
{
	uint8_t f[RAWUDP_HLEN + PAYLOAD_MAX], p[PAYLOAD_MAX];
	unsigned int len;

	payload_of(seq, p);
	len = rawudp_frame(&peer, f, p, len_of(seq), seq, 0);
	while (netdev_tx(&d, f, len) == -TACET_EBUSY) {
		if (netdev_sleep_ok(&d))
			tacet_wait(ntfn);
		netdev_poll(&d, 0);
	}
	sent++;
}

/* An echo: one datagram sent, byte for byte, the first time it comes; else counted. */
static void udp_input(const uint8_t *p, long n)
{
	uint8_t want[PAYLOAD_MAX];
	uint32_t seq = n >= 4 ? rawudp_get32(p) : SEQ_MAX;

	if (seq >= sent || (unsigned long)n != len_of(seq)) {
		wrong++;
		return;
	}
	payload_of(seq, want);
	if (memcmp(p, want, (size_t)n)) {
		wrong++;
		return;
	}
	if (seen[seq]) {
		twice++;
		return;
	}
	seen[seq] = 1;
	echoed++;
}

/* Every frame net1 has: ARP answered, echoes checked. The frames taken. */
static unsigned int receive_all(void)
{
	unsigned int n = 0, len;
	void *v;

	netdev_poll(&d, 0);
	while (netdev_rx(&d, &v, &len) == 1) {
		const uint8_t *p;
		long k = rawudp_arp_input(&peer, v, len) ? -1 : rawudp_payload(&peer, v, len, &p);

		if (k >= 0)
			udp_input(p, k);
		netdev_rx_done(&d, v);
		n++;
	}
	return n;
}

/* Sleep until net1 signals or `ns` pass; 1 if the time ended it. */
static int wait_ns(uint64_t ns)
{
	long bits;

	if (!netdev_sleep_ok(&d))
		return 0;
	tacet_timer_set(ntfn, TIMER_BIT, tacet_time() + tacet_ns_to_ticks(ns));
	bits = tacet_wait(ntfn);
	netdev_poll(&d, bits > 0 ? (unsigned long)bits : 0);
	return bits > 0 && !((unsigned long)bits & NET_BIT);
}

/* Is net0's endpoint (in net0_ep) its server's still? */
static int net0_alive(void)
{
	uint64_t w[4];

	return net_call_stats(net0_ep, &w[0], &w[1], &w[2], &w[3]) != -TACET_EDEAD;
}

/* Has ip reached net0's next instance (IP_BUFFERS' reattached)? */
static int ip_reattached(void)
{
	uint64_t held, rx_stale, tx_stale, reattached = 0;

	return !ip_call_buffers(ip_ep, &held, &rx_stale, &tx_stale, &reattached) && reattached;
}

/* ip's count of frames taken from net. */
static uint64_t ip_received(void)
{
	uint64_t rx = 0, bad, dropped, frags;

	ip_call_counts(ip_ep, &rx, &bad, &dropped, &frags);
	return rx;
}

/* Datagrams sent as fast as net1 takes them, echoes checked as they come (ip's queue
 * overflows: those are dropped and counted), until net0 is found dead (asked every CHECK_EVERY
 * sent), ip has reached its next instance (asked likewise), and AFTER more are sent: the next
 * instance fills its buffers, among them those ip held over the death, while ip may hold them
 * still. 0, or -1 if net0 never died. */
static int stream_through_death(uint32_t *dead_at)
{
	uint32_t next_at = 0;

	*dead_at = 0;
	while (!next_at || sent - next_at < AFTER) {
		receive_all();
		if (sent >= SEQ_MAX / 2)
			return -1;
		if (sent % CHECK_EVERY == 0 && !*dead_at && !net0_alive())
			*dead_at = sent;
		else if (sent % CHECK_EVERY == 0 && *dead_at && !next_at && ip_reattached())
			next_at = sent;
		send_seq(sent);
	}
	return 0;
}

/* Echoes taken until the stream has drained: no echo for DRAIN_NS and ip took no frame from
 * net meanwhile (what the flood left in ip's queue or on the way would otherwise meet the
 * fresh datagrams and overflow the queue). */
static void drain(void)
{
	uint64_t was = ip_received() + 1, now;

	for (;;) {
		if (receive_all() || !wait_ns(DRAIN_NS))
			continue;
		now = ip_received();
		if (now == was)
			return;
		was = now;
	}
}

/* Probes until one is echoed: ip has reached net0's next instance. 0, or -1 (none in
 * STALL_NS). */
static int probe(void)
{
	uint64_t deadline = tacet_time() + tacet_ns_to_ticks(STALL_NS);

	while (tacet_time() < deadline) {
		uint32_t seq = sent;

		send_seq(seq);
		for (uint64_t until = tacet_time() + tacet_ns_to_ticks(PROBE_NS);
		     !seen[seq] && tacet_time() < until;)
			if (!receive_all())
				wait_ns(PROBE_NS);
		if (seen[seq])
			return 0;
	}
	return -1;
}

/* FRESH datagrams at WINDOW in flight; each must come back. The number that did. */
static uint32_t fresh(void)
{
	uint32_t from = sent, next = sent, back = 0;

	while (back < FRESH) {
		back = 0;
		for (uint32_t s = from; s < sent; s++)
			back += seen[s];
		if (receive_all())
			continue;
		if (next < from + FRESH && next - from - back < WINDOW) {
			send_seq(next++);
			continue;
		}
		if (back < FRESH && wait_ns(STALL_NS))
			break;
	}
	return back;
}

static int check(int ok, const char *what)
{
	printf("udpheld: %s: %s\n", what, ok ? "PASS" : "FAIL");
	return ok;
}

static int counters(uint32_t lost)
{
	uint64_t rx, bad, dropped, frags, held, rx_stale, tx_stale, reattached;
	char line[200];
	long err;
	int ok = 1;

	err = ip_call_counts(ip_ep, &rx, &bad, &dropped, &frags);
	if (!err)
		err = ip_call_buffers(ip_ep, &held, &rx_stale, &tx_stale, &reattached);
	if (!check(!err, "ip answers IP_COUNTS and IP_BUFFERS"))
		return 0;
	snprintf(line, sizeof(line), "%u datagrams lost across net0's death, ip dropped %llu as "
		 "held over it (%llu received, %llu sent)", lost,
		 (unsigned long long)(rx_stale + tx_stale), (unsigned long long)rx_stale,
		 (unsigned long long)tx_stale);
	ok &= check(rx_stale > 0 && rx_stale + tx_stale <= lost, line);
	snprintf(line, sizeof(line), "ip's dropped (%llu) counts them",
		 (unsigned long long)dropped);
	ok &= check(dropped >= rx_stale + tx_stale, line);
	snprintf(line, sizeof(line), "ip reached net0's next instance once (%llu) and holds none "
		 "of its buffers at the end (%llu)", (unsigned long long)reattached,
		 (unsigned long long)held);
	ok &= check(reattached == 1 && !held, line);
	return ok;
}

static void resolve(void)
{
	static const uint8_t zero[ETH_ALEN];

	while (!peer.have_mac) {
		rawudp_arp(&peer, 1, zero, UDP_BENCH_IP_ADDR);
		wait_ns(PROBE_NS);
		receive_all();
	}
}

int main(void)
{
	long k = 0, err;
	uint32_t dead_at, before, back, lost = 0;
	char line[160];
	int ok = 1;

	err = rawudp_client_open(&d, &ntfn, &ip_ep, &net0_ep, NET_BIT);
	if (!err && (k = tacet_slot_alloc()) >= 0) /* udpkeep's socket bound */
		err = tacet_lookup("udpkeep", (unsigned long)k, 10000);
	if (err || k < 0) {
		printf("udpheld: cannot reach ip, net0, net1 and udpkeep: %s\n",
		       tacet_strerror(err ? err : k));
		tacet_poweroff(1);
		return 1;
	}
	resolve();
	if (!check(!stream_through_death(&dead_at), "net0 died mid-stream") ||
	    !check(!probe(), "ip echoes again")) {
		tacet_poweroff(1);
		return 1;
	}
	drain();
	before = sent;
	for (uint32_t s = 0; s < before; s++)
		lost += !seen[s];
	printf("udpheld: net0 found dead after %u datagrams sent, %u sent in all, %u of them "
	       "echoed\n", dead_at, before, before - lost);
	back = fresh();
	snprintf(line, sizeof(line), "%u of %d fresh datagrams echoed after the death", back,
		 FRESH);
	ok &= check(back == FRESH, line);
	snprintf(line, sizeof(line), "every echo one datagram sent, byte for byte, once (%u "
		 "echoed of %u sent; %u wrong, %u twice)", echoed, sent, wrong, twice);
	ok &= check(!wrong && !twice, line);
	ok &= counters(lost);
	if (ok)
		printf("udpheld: all checks passed\n");
	tacet_poweroff(!ok);
	return ok ? 0 : 1;
}
