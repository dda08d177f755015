/* iperf: an iperf 2 server (init.run= `iperf`, after ip): TCP port IPERF_PORT over lib's
 * sockets (<tacet/net.h>), the receiving end of `iperf -c HOST -p PORT [-t N]` (iperf 2). A
 * client's connection brings its test settings first (struct iperf_settings: six big-endian
 * words), then the stream until it closes; the server reads and counts everything and, at the
 * close, prints the bytes, the time from the accept and the rate. The client measures and
 * reports on its own, so nothing is sent back. A client asking for a test the other way
 * (iperf's -d or -r: IPERF_FLAG_VERSION1 in the settings, for which the server would connect
 * back) is told nothing: its stream is still received and counted, said so in the line.
 *
 * Several clients (iperf -P) at once, up to the session's quota: one thread waits for
 * whichever socket has something (tacet_net_ready). No IPC protocol of its own; one thread, no
 * locks. Prints through the kernel's debug output. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <tacet.h>
#include <tacet/net.h>

#define IPERF_PORT          5001
#define NTFN_BIT            1ul
#define IPERF_FLAG_VERSION1 0x80000000u /* the client asks for a test back (dual, tradeoff) */

/* The settings an iperf 2 client sends first, each word big-endian. */
struct iperf_settings {
	uint32_t flags, threads, port, buffer_len, win_band, amount;
};

struct stream {
	uint64_t start_ns, bytes;
	uint8_t head[sizeof(struct iperf_settings)]; /* the settings as they came */
};

static struct tacet_net n;
static struct stream streams[IP_SOCKETS_MAX + 1]; /* by socket id */
static uint8_t buf[16384];

static void fail(const char *what, long err)
{
	printf("iperf: %s: %s\n", what, tacet_strerror(err));
	tacet_exit(1);
}

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* The stream's end: its figures. */
static void stream_end(long s, const struct stream *k)
{
	uint64_t ns = tacet_time_ns() - k->start_ns, kbits = ns ? k->bytes * 8 * 1000000 / ns : 0;
	bool back = k->bytes >= sizeof(k->head) && (be32(k->head) & IPERF_FLAG_VERSION1);

	printf("iperf: connection %ld: %llu bytes in %llu.%03llu s, %llu.%03llu Mbit/s%s\n", s,
	       (unsigned long long)k->bytes, (unsigned long long)(ns / 1000000000),
	       (unsigned long long)(ns / 1000000 % 1000), (unsigned long long)(kbits / 1000),
	       (unsigned long long)(kbits % 1000),
	       back ? " (a test back was asked for: not served)" : "");
	tacet_net_sock_close(&n, s);
}

/* Bytes on a stream, or its end. */
static void stream_receive(long s)
{
	struct stream *k = &streams[s];
	long got = tacet_net_recv(&n, s, buf, sizeof(buf), 0, NULL, NULL);

	if (got == -TACET_EDEAD)
		fail("recv", got);
	if (got <= 0) {
		stream_end(s, k);
		return;
	}
	if (k->bytes < sizeof(k->head)) {
		size_t take = sizeof(k->head) - k->bytes < (size_t)got ? sizeof(k->head) - k->bytes
									: (size_t)got;

		memcpy(k->head + k->bytes, buf, take);
	}
	k->bytes += (uint64_t)got;
}

int main(void)
{
	long slot = tacet_slot_alloc(), err = slot < 0 ? slot : tacet_ntfn_new((unsigned long)slot);
	long listener = 0;

	if (!err)
		err = tacet_net_open(&n, 64, IP_BUF_MAX, (unsigned long)slot, NTFN_BIT);
	if (err)
		fail("open a session with ip", err);
	if ((listener = tacet_net_socket(&n, IP_SOCK_TCP)) < 0 ||
	    (err = tacet_net_bind(&n, listener, 0, IPERF_PORT)) ||
	    (err = tacet_net_listen(&n, listener)))
		fail("listen", listener < 0 ? listener : err);
	printf("iperf: iperf 2 server on TCP port %d\n", IPERF_PORT);
	for (;;) {
		long s = tacet_net_ready(&n, 0), c;

		if (s < 0)
			fail("wait", s);
		if (s != listener) {
			stream_receive(s);
			continue;
		}
		if ((c = tacet_net_accept(&n, listener, 0)) < 0)
			fail("accept", c);
		streams[c] = (struct stream){ .start_ns = tacet_time_ns() };
		printf("iperf: connection %ld accepted\n", c);
	}
}
