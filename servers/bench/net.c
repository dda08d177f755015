/* net.c (bench_net): instructions per packet through the network device service, under
 * -icount: 60-byte frames from net0's NIC to net1's (two instances of servers/net on one QEMU
 * hub), a stream kept at WINDOW frames in flight (1, 16, 256), each sample the instructions the
 * whole machine retired (both drivers, the kernel, this client, every hart) over WINDOW frames
 * received (at least 16), divided by them. Then, per window, interrupts per packet: the two
 * drivers' interrupts over the frames they handled (each frame counts once sent and once
 * received), as NETIRQ lines. Prints one BENCH line per window, then asks init to power off.
 * One thread; no locking. */
#include <stdio.h>
#include <string.h>
#include <tacet.h>
#include <tacet/net_client.h>
#include <tacet/netdev.h>
#include "bench.h"

#define NBUFS    256
#define BUF_SIZE 2048
#define BIT_A    1ul
#define BIT_B    2ul
#define WARMUP_FRAMES 512

static struct netdev a, b;
static unsigned long ntfn;
static unsigned long samples[BENCH_SAMPLES];
static uint32_t sent, received; /* in the current stream */

static void receive_all(void)
{
	void *f;
	unsigned int len;

	while (netdev_rx(&b, &f, &len) == 1) {
		received++;
		netdev_rx_done(&b, f);
	}
}

static void send_window(unsigned int window)
{
	uint8_t *f;

	while (sent - received < window && (f = netdev_tx_buf(&a))) {
		memcpy(f, b.mac, ETH_ALEN);
		memcpy(f + ETH_ALEN, a.mac, ETH_ALEN);
		f[12] = 0x88, f[13] = 0xb5;
		if (netdev_tx_send(&a, f, ETH_ZLEN))
			break;
		sent++;
	}
}

/* Keep `window` frames in flight until `until` have been received. */
static void stream(unsigned int window, uint32_t until)
{
	while (received < until) {
		uint32_t before = received, was_sent = sent;
		long bits;

		netdev_poll(&a, 0);
		receive_all();
		send_window(window);
		if (received != before || sent != was_sent)
			continue;
		if (!(netdev_sleep_ok(&a) & netdev_sleep_ok(&b)))
			continue;
		bits = tacet_wait(ntfn);
		netdev_poll(&a, bits > 0 ? (unsigned long)bits : 0);
		netdev_poll(&b, bits > 0 ? (unsigned long)bits : 0);
	}
}

static void irqs_and_packets(uint64_t *irqs, uint64_t *packets)
{
	uint64_t rx, tx, n, d;

	*irqs = *packets = 0;
	net_call_stats(a.ep, &rx, &tx, &n, &d);
	*irqs += n, *packets += rx + tx;
	net_call_stats(b.ep, &rx, &tx, &n, &d);
	*irqs += n, *packets += rx + tx;
}

static void run(unsigned int window, unsigned long overhead)
{
	unsigned int per = window < 16 ? 16 : window, n = window >= 256 ? 256 :
							  window >= 16 ? 1024 : BENCH_SAMPLES;
	uint64_t irqs0, packets0, irqs1, packets1;
	char name[32];

	stream(window, received + WARMUP_FRAMES);
	irqs_and_packets(&irqs0, &packets0);
	for (unsigned int i = 0; i < n; i++) {
		unsigned long t0 = bench_rdcycle(), took;

		stream(window, received + per);
		took = bench_rdcycle() - t0 - overhead;
		samples[i] = took / per;
	}
	irqs_and_packets(&irqs1, &packets1);
	snprintf(name, sizeof(name), "net_packet_%u", window);
	bench_report(name, samples, n);
	printf("NETIRQ net_irqs_%u irqs=%llu packets=%llu per_1000=%llu\n", window,
	       (unsigned long long)(irqs1 - irqs0), (unsigned long long)(packets1 - packets0),
	       (unsigned long long)((irqs1 - irqs0) * 1000 / (packets1 - packets0 ?
							      packets1 - packets0 : 1)));
	/* drain: what is in flight arrives before the next window starts */
	stream(0, sent);
}

int main(void)
{
	long slot = tacet_slot_alloc(), err;
	unsigned long overhead = bench_overhead();

	err = slot < 0 ? slot : tacet_ntfn_new((unsigned long)slot);
	ntfn = (unsigned long)slot;
	if (!err)
		err = netdev_open(&a, "net0", NBUFS, BUF_SIZE, ntfn, BIT_A);
	if (!err)
		err = netdev_open(&b, "net1", NBUFS, BUF_SIZE, ntfn, BIT_B);
	if (err) {
		printf("bench_net: cannot open net0 and net1: %s\n", tacet_strerror(err));
		bench_power_off();
		return 1;
	}
	run(1, overhead);
	run(16, overhead);
	run(256, overhead);
	bench_power_off();
	return 0;
}
