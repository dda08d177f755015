/* udp.c (bench_udp): instructions per echoed UDP datagram through the IP stack, under -icount.
 * This client is a raw network device client of net1 (<tacet/netdev.h>, no IP stack of its own:
 * it writes Ethernet, IPv4 and UDP headers itself and answers ARP); on the same QEMU hub, net0's
 * NIC is driven by net0 for ip_static (servers/ip at UDP_BENCH_IP_ADDR), whose socket client
 * servers/echo sends every datagram back. A stream of datagrams (DGRAM_PAYLOAD bytes, each
 * carrying its sequence number) is kept at WINDOW in flight (1, 16, 256); a sample is the
 * instructions the whole machine retired (both drivers, ip, echo, this client, the kernel, every
 * hart) over at least 16 datagrams echoed, divided by them. A datagram not echoed (ip dropped
 * it: its socket's queue full) is written off when the stream goes quiet for LOSS_WAIT_NS and
 * counted, and its window reports no figure (a path that loses datagrams is not measured); one
 * echoed out of order is counted too (UDPLOSS lines, with ip's IP_COUNTS). Per window also
 * interrupts per packet (NETIRQ lines): net0's (the echo side's) interrupts over the frames it
 * handled, and both drivers' over theirs. The markers of tools/qemu-plugins/hart_split.h around
 * each window's samples let that plugin count each hart's user and kernel instructions, which
 * SPLITUNITS lines (the datagrams echoed between the markers) divide. Then asks init to power
 * off. One thread; no locking. */
#include <stdio.h>
#include <string.h>
#include <tacet.h>
#include <tacet/driver.h>
#include <tacet/ip_client.h>
#include <tacet/net_client.h>
#include <tacet/netdev.h>
#include "bench.h"
#include "rawudp.h"
#include "udp.h"
#include "../../tools/qemu-plugins/hart_split.h"

#define NBUFS         256
#define BUF_SIZE      2048
#define NET_BIT       1ul
#define TIMER_BIT     2ul
#define WARMUP        512
#define DGRAM_PAYLOAD 32
#define LOSS_WAIT_NS  20000000ull

static struct netdev d;
static unsigned long ntfn, net0_ep, ip_ep;
static unsigned long samples[BENCH_SAMPLES];
static struct rawudp peer = { .nd = &d, .addr = UDP_BENCH_CLIENT_ADDR,
			       .peer_addr = UDP_BENCH_IP_ADDR, .port = UDP_BENCH_CLIENT_PORT,
			       .peer_port = UDP_BENCH_ECHO_PORT };
static uint32_t sent, next;  /* next: the first datagram neither echoed nor written off */
static uint32_t echoed, lost, strays, reordered;
#define SEEN 1024 /* > the largest window: echoes marked until every earlier one came */
static uint8_t seen[SEEN];

/* Every datagram is this frame (sequence number 0) with its number put in: the UDP checksum
 * is the template's one's-complement sum (tmpl_sum) plus the number's two halves, folded. */
#define FRAME_LEN (RAWUDP_HLEN + DGRAM_PAYLOAD)
#define UDP_SUM   (ETH_HLEN + RAWUDP_IP_HLEN + 6)
static uint8_t tmpl_mem[FRAME_LEN + 8] __attribute__((aligned(8)));
/* at a frame's alignment in its buffer, so that the copy into one moves aligned words */
static uint8_t *const tmpl = tmpl_mem + NETDEV_FRAME_OFFSET % 8;
static uint32_t tmpl_sum;

static void template_make(void)
{
	uint8_t payload[DGRAM_PAYLOAD];

	memset(payload, 0x5a, sizeof(payload));
	rawudp_put32(payload, 0);
	rawudp_frame(&peer, tmpl, payload, sizeof(payload), 0, 0);
	tmpl_sum = ~rawudp_get16(tmpl + UDP_SUM) & 0xffff;
}

/* Datagram seq to ip_static's echo port. 0, or nonzero if no transmit buffer is free. */
static int dgram_send(uint32_t seq)
{
	uint8_t *f = netdev_tx_buf(&d);
	uint32_t sum = tmpl_sum + (seq >> 16) + (seq & 0xffff);

	if (!f)
		return 1;
	memcpy(f, tmpl, FRAME_LEN);
	rawudp_put32(f + RAWUDP_HLEN, seq);
	sum = (sum & 0xffff) + (sum >> 16);
	sum = ~((sum & 0xffff) + (sum >> 16)) & 0xffff;
	rawudp_put16(f + UDP_SUM, sum ? sum : 0xffff);
	return netdev_tx_send(&d, f, FRAME_LEN) != 0;
}

/* An echo: datagram seq back with its payload. Echoes may come out of order (QEMU hands a frame
 * to a card that just got receive buffers before the frames it queued while there were none),
 * so each is marked in `seen` until every earlier one has come. */
static void udp_input(const uint8_t *f, unsigned int len)
{
	const uint8_t *p;
	uint32_t seq;

	if (rawudp_payload(&peer, f, len, &p) != DGRAM_PAYLOAD || p[DGRAM_PAYLOAD - 1] != 0x5a) {
		strays++;
		return;
	}
	seq = rawudp_get32(p);
	if (seq - next >= sent - next || seen[seq % SEEN]) { /* written off, unsent or twice */
		strays++;
		return;
	}
	seen[seq % SEEN] = 1;
	echoed++;
	if (seq != next)
		reordered++;
	while (next != sent && seen[next % SEEN])
		seen[next++ % SEEN] = 0;
}

static void receive_all(void)
{
	uint8_t *f;
	void *v;
	unsigned int len;

	while (netdev_rx(&d, &v, &len) == 1) {
		f = v;
		if (!rawudp_arp_input(&peer, f, len))
			udp_input(f, len);
		netdev_rx_done(&d, v);
	}
}

static void send_window(unsigned int window)
{
	while (sent - next < window && !dgram_send(sent))
		sent++;
}

/* Sleep until net1 or the timer signals; 0, or 1 if the timer ended it (LOSS_WAIT_NS of
 * nothing). */
static int quiet_wait(void)
{
	long bits;

	tacet_timer_set(ntfn, TIMER_BIT, tacet_time() + tacet_ns_to_ticks(LOSS_WAIT_NS));
	bits = tacet_wait(ntfn);
	netdev_poll(&d, bits > 0 ? (unsigned long)bits : 0);
	return bits > 0 && !((unsigned long)bits & NET_BIT);
}

/* Nothing came for LOSS_WAIT_NS: what is in flight is lost. */
static void write_off(void)
{
	for (; next != sent; next++) {
		lost += !seen[next % SEEN];
		seen[next % SEEN] = 0;
	}
}

/* Keep `window` datagrams in flight until `until` have been echoed (or written off). */
static void stream(unsigned int window, uint32_t until)
{
	while (next < until) {
		uint32_t was_next = next, was_sent = sent;

		netdev_poll(&d, 0);
		receive_all();
		send_window(window);
		if (next != was_next || sent != was_sent || !netdev_sleep_ok(&d))
			continue;
		if (quiet_wait())
			write_off();
	}
}

static void net_counts(unsigned long ep, uint64_t *irqs, uint64_t *packets)
{
	uint64_t rx = 0, tx = 0, n = 0, dropped = 0;

	net_call_stats(ep, &rx, &tx, &n, &dropped);
	*irqs = n, *packets = rx + tx;
}

static void run(unsigned int window, unsigned long overhead)
{
	unsigned int per = window < 16 ? 16 : window, n = window >= 256 ? 256 :
							  window >= 16 ? 1024 : BENCH_SAMPLES;
	uint64_t i0[2], p0[2], i1[2], p1[2];
	uint32_t lost0, echoed0, reordered0;
	char name[32];

	stream(window, next + WARMUP);
	net_counts(net0_ep, &i0[0], &p0[0]);
	net_counts(d.ep, &i0[1], &p0[1]);
	lost0 = lost, echoed0 = echoed, reordered0 = reordered;
	hart_split_mark(HART_SPLIT_START);
	for (unsigned int i = 0; i < n; i++) {
		unsigned long t0 = bench_rdcycle(), took;
		uint32_t from = echoed;

		stream(window, next + per);
		took = bench_rdcycle() - t0 - overhead;
		samples[i] = took / (echoed - from ? echoed - from : 1);
	}
	hart_split_mark(HART_SPLIT_END);
	net_counts(net0_ep, &i1[0], &p1[0]);
	net_counts(d.ep, &i1[1], &p1[1]);
	snprintf(name, sizeof(name), "udp_echo_%u", window);
	if (lost == lost0)
		bench_report(name, samples, n);
	else /* no figure: bench.py fails the benchmark */
		printf("bench_udp: %u datagrams lost at %u in flight: no figure\n", lost - lost0,
		       window);
	printf("NETIRQ udp_irqs_%u net0_irqs=%llu net0_packets=%llu net0_per_1000=%llu "
	       "both_irqs=%llu both_packets=%llu both_per_1000=%llu\n", window,
	       (unsigned long long)(i1[0] - i0[0]), (unsigned long long)(p1[0] - p0[0]),
	       (unsigned long long)((i1[0] - i0[0]) * 1000 / (p1[0] - p0[0] + !(p1[0] - p0[0]))),
	       (unsigned long long)(i1[0] - i0[0] + i1[1] - i0[1]),
	       (unsigned long long)(p1[0] - p0[0] + p1[1] - p0[1]),
	       (unsigned long long)((i1[0] - i0[0] + i1[1] - i0[1]) * 1000 /
				    (p1[0] - p0[0] + p1[1] - p0[1] + 1)));
	printf("SPLITUNITS %s units=%u\n", name, echoed - echoed0);
	{
		uint64_t rx = 0, bad = 0, dropped = 0, frags = 0;

		ip_call_counts(ip_ep, &rx, &bad, &dropped, &frags);
		printf("UDPLOSS udp_echo_%u lost=%u echoed=%u reordered=%u strays=%u; ip since its "
		       "start: received=%llu malformed=%llu dropped=%llu\n", window, lost - lost0,
		       echoed - echoed0, reordered - reordered0, strays, (unsigned long long)rx, (unsigned long long)bad,
		       (unsigned long long)dropped);
	}
	stream(0, sent); /* what is in flight comes back before the next window */
}

/* ip_static's MAC, by ARP (asked again each LOSS_WAIT_NS until it answers). */
static void resolve(void)
{
	static const uint8_t zero[ETH_ALEN];

	while (!peer.have_mac) {
		rawudp_arp(&peer, 1, zero, UDP_BENCH_IP_ADDR);
		quiet_wait();
		receive_all();
	}
}

int main(void)
{
	long slot = tacet_slot_alloc(), ep = tacet_slot_alloc(), ip = tacet_slot_alloc(), err;
	unsigned long overhead = bench_overhead();

	err = slot < 0 ? slot : ep < 0 ? ep : ip < 0 ? ip : tacet_ntfn_new((unsigned long)slot);
	ntfn = (unsigned long)slot, net0_ep = (unsigned long)ep, ip_ep = (unsigned long)ip;
	if (!err)
		err = tacet_lookup("net0", net0_ep, 10000);
	if (!err)
		err = tacet_lookup("ip", ip_ep, 10000);
	if (!err)
		err = netdev_open(&d, "net1", NBUFS, BUF_SIZE, ntfn, NET_BIT);
	if (err) {
		printf("bench_udp: cannot reach net0, ip and net1: %s\n", tacet_strerror(err));
		bench_power_off();
		return 1;
	}
	resolve();
	template_make();
	run(1, overhead);
	run(16, overhead);
	run(256, overhead);
	bench_power_off();
	return 0;
}
