/* ipbadwire: malformed frames from the wire into the IP stack while a good UDP echo runs
 * (tests/qemu/cases_net.py, ip-bad-wire). A raw client of "net1" (servers/bench/rawudp.h) on
 * the hub of ip_static's card (servers/ip at UDP_BENCH_IP_ADDR, servers/echo its client) sends
 * GOOD datagrams to the echo port, each after a few bad frames of one kind in turn: a frame too
 * short for its IPv4 header, a bad IPv4 header checksum, a bad UDP checksum, an IP length past
 * the frame, a first fragment whose datagram never completes, and a flood of FLOOD frames with
 * bad checksums. Each good datagram must come back byte for byte (resent after RESEND_NS without
 * its echo: the flood may fill ip's receive ring, where net drops and counts); then ip's
 * IP_COUNTS must have counted the bad frames malformed and dropped (those net0 dropped before
 * ip saw them excepted) and the fragments received, and ip must still answer. Exits 0 when every
 * check passed, asking init to power off. One thread; no IPC protocol of its own. */
#include <stdio.h>
#include <string.h>
#include <tacet.h>
#include <tacet/driver.h>
#include <tacet/ip_client.h>
#include <tacet/net_client.h>
#include <tacet/netdev.h>

#include "../bench/rawudp.h"
#include "../bench/udp.h"

#define GOOD       300
#define FLOOD      64
#define PAYLOAD    48
#define NET_BIT    1ul
#define TIMER_BIT  2ul
#define RESEND_NS  1000000000ull
#define RESENDS    20
#define IP_LEN_OFF (ETH_HLEN + 2)
#define IP_SUM_OFF (ETH_HLEN + 10)
#define UDP_SUM_OFF (ETH_HLEN + RAWUDP_IP_HLEN + 6)

enum kind { SHORT, IP_SUM, UDP_SUM, IP_LONG, FRAGMENT, FLOOD_KIND, KINDS };

static struct netdev d;
static struct rawudp peer = { .nd = &d, .addr = UDP_BENCH_CLIENT_ADDR,
			       .peer_addr = UDP_BENCH_IP_ADDR, .port = UDP_BENCH_CLIENT_PORT,
			       .peer_port = UDP_BENCH_ECHO_PORT };
static unsigned long ntfn, ip_ep, net0_ep;
static unsigned long bad_sent, frags_sent, resent, wrong;

/* One frame out, waiting for a transmit buffer if none is free. */
static void send_frame(const uint8_t *f, unsigned int len)
{
	while (netdev_tx(&d, f, len) == -TACET_EBUSY) {
		if (netdev_sleep_ok(&d))
			tacet_wait(ntfn);
		netdev_poll(&d, 0);
	}
}

/* Datagram seq's payload: its number, then bytes that depend on it. */
static void payload_of(uint32_t seq, uint8_t *p)
{
	rawudp_put32(p, seq);
	for (unsigned int i = 4; i < PAYLOAD; i++)
		p[i] = (uint8_t)(seq * 31 + i);
}

/* An echo that is not seq's: 1 if it is no good datagram's of seq or before (a late echo of an
 * earlier resend is fine). */
static int wrong_echo(const uint8_t *p, long n, uint32_t seq)
{
	uint8_t want[PAYLOAD];
	uint32_t was = rawudp_get32(p);

	if (n != PAYLOAD || was == 0 || was > seq)
		return 1;
	payload_of(was, want);
	return memcmp(p, want, PAYLOAD) != 0;
}

/* The bad frames of round `seq`: one of each kind in turn (the flood: FLOOD of them). */
static void send_bad(uint32_t seq)
{
	uint8_t f[RAWUDP_HLEN + PAYLOAD], p[PAYLOAD];
	unsigned int len;
	enum kind k = seq % KINDS;

	payload_of(seq, p);
	len = rawudp_frame(&peer, f, p, PAYLOAD, seq, k == FRAGMENT ? 0x2000 : 0);
	switch (k) {
	case SHORT: /* 10 bytes of an IPv4 header, which claims 100 */
		rawudp_put16(f + IP_LEN_OFF, 100);
		len = ETH_HLEN + 10;
		break;
	case IP_SUM:
	case FLOOD_KIND:
		f[IP_SUM_OFF] ^= 0xff;
		break;
	case UDP_SUM: /* never 0, which would say "no checksum" */
		rawudp_put16(f + UDP_SUM_OFF, rawudp_get16(f + UDP_SUM_OFF) == 0x1234 ? 0x4321 :
								0x1234);
		break;
	case IP_LONG:
		rawudp_put16(f + IP_LEN_OFF, 1000);
		rawudp_ip_checksum(f);
		break;
	case FRAGMENT: /* more fragments follow, and none ever does */
		frags_sent++;
		send_frame(f, len);
		return;
	case KINDS:
		return;
	}
	for (unsigned int i = 0; i < (k == FLOOD_KIND ? FLOOD : 1); i++, bad_sent++)
		send_frame(f, len);
}

/* Frames received until the echo of seq (1) or the deadline (0); ARP answered on the way. */
static int echo_came(uint32_t seq, uint64_t deadline)
{
	uint8_t want[PAYLOAD];
	void *v;
	unsigned int len;

	payload_of(seq, want);
	tacet_timer_set(ntfn, TIMER_BIT, deadline);
	for (;;) {
		long bits;

		netdev_poll(&d, 0);
		while (netdev_rx(&d, &v, &len) == 1) {
			const uint8_t *p;
			long n = rawudp_arp_input(&peer, v, len) ? -1 :
				 rawudp_payload(&peer, v, len, &p);
			int match = n == PAYLOAD && !memcmp(p, want, PAYLOAD);

			wrong += n >= 0 && !match && wrong_echo(p, n, seq);
			netdev_rx_done(&d, v);
			if (match)
				return 1;
		}
		if (tacet_time() >= deadline)
			return 0;
		if (!netdev_sleep_ok(&d))
			continue;
		bits = tacet_wait(ntfn);
		netdev_poll(&d, bits > 0 ? (unsigned long)bits : 0);
	}
}

/* Datagram seq to the echo port until its echo comes (at most RESENDS times). */
static int echoed(uint32_t seq)
{
	uint8_t f[RAWUDP_HLEN + PAYLOAD], p[PAYLOAD];
	unsigned int len;

	payload_of(seq, p);
	len = rawudp_frame(&peer, f, p, PAYLOAD, seq, 0);
	for (int i = 0; i < RESENDS; i++, resent++) {
		send_frame(f, len);
		if (echo_came(seq, tacet_time() + tacet_ns_to_ticks(RESEND_NS)))
			return 1;
	}
	return 0;
}

static void resolve(void)
{
	static const uint8_t zero[ETH_ALEN];
	void *v;
	unsigned int len;

	while (!peer.have_mac) {
		rawudp_arp(&peer, 1, zero, UDP_BENCH_IP_ADDR);
		tacet_sleep_ns(100000000ull);
		netdev_poll(&d, 0);
		while (netdev_rx(&d, &v, &len) == 1) {
			rawudp_arp_input(&peer, v, len);
			netdev_rx_done(&d, v);
		}
	}
}

static int check(int ok, const char *what)
{
	printf("ipbadwire: %s: %s\n", what, ok ? "PASS" : "FAIL");
	return ok;
}

int main(void)
{
	long err;
	uint64_t rx0, bad0, drop0, frag0, rx1, bad1, drop1, frag1, w[3], nd0, nd1;
	unsigned long good = 0;
	char line[160];
	int ok = 1;

	err = rawudp_client_open(&d, &ntfn, &ip_ep, &net0_ep, NET_BIT);
	if (err) {
		printf("ipbadwire: cannot reach ip, net0 and net1: %s\n", tacet_strerror(err));
		tacet_poweroff(1);
		return 1;
	}
	resolve();
	ip_call_counts(ip_ep, &rx0, &bad0, &drop0, &frag0);
	net_call_stats(net0_ep, &w[0], &w[1], &w[2], &nd0);
	for (uint32_t seq = 1; seq <= GOOD; seq++) {
		send_bad(seq);
		good += echoed(seq);
	}
	err = ip_call_counts(ip_ep, &rx1, &bad1, &drop1, &frag1);
	net_call_stats(net0_ep, &w[0], &w[1], &w[2], &nd1);
	printf("ipbadwire: sent %lu malformed frames and %lu lone fragments; ip counted %llu "
	       "malformed, %llu dropped, %llu fragments; net0 dropped %llu\n", bad_sent,
	       frags_sent, (unsigned long long)(bad1 - bad0), (unsigned long long)(drop1 - drop0),
	       (unsigned long long)(frag1 - frag0), (unsigned long long)(nd1 - nd0));
	snprintf(line, sizeof(line), "%lu of %d good datagrams echoed, every byte as sent "
		 "(%lu resent, %lu wrong)", good, GOOD, resent, wrong);
	ok &= check(good == GOOD && !wrong, line);
	ok &= check(!err && bad1 - bad0 <= bad_sent && bad1 - bad0 + (nd1 - nd0) >= bad_sent,
		    "every malformed frame ip saw counted malformed");
	ok &= check(drop1 - drop0 >= bad1 - bad0, "and dropped");
	ok &= check(frag1 - frag0 + (nd1 - nd0) >= frags_sent && frag1 - frag0 <= frags_sent,
		    "every lone fragment ip saw counted");
	if (ok)
		printf("ipbadwire: all checks passed\n");
	tacet_poweroff(!ok);
	return ok ? 0 : 1;
}
