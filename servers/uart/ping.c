/* ping.c: the shell's `ping ADDR [COUNT]`: COUNT (default 4, at most PING_COUNT_MAX) ICMP echo
 * requests to ADDR, one a call to the IP stack's service ("ip", <tacet/ip.h>), each reply's line
 * like ping(8)'s and then the summary. The console is blocked in each call (up to PING_WAIT_MS
 * a request; the ip server never calls the console back: it prints through the kernel's debug
 * output). Runs in the console server's one thread. */
#include <stdio.h>
#include <stdlib.h>
#include <tacet.h>
#include <tacet/ip.h>

#include "ping.h"

#define PING_COUNT_MAX 10000
#define PING_WAIT_MS   1000

/* A dotted quad into *addr (host order): 0, or -1 if s is not one. */
static int parse_ipv4(const char *s, uint32_t *addr)
{
	uint32_t a = 0;

	for (int i = 0; i < 4; i++) {
		char *end;
		unsigned long part;

		if (*s < '0' || *s > '9')
			return -1;
		part = strtoul(s, &end, 10);
		if (part > 255 || end == s || (i < 3 && *end != '.'))
			return -1;
		a = a << 8 | (uint32_t)part;
		s = i < 3 ? end + 1 : end;
	}
	if (*s && *s != ' ')
		return -1;
	*addr = a;
	return 0;
}

static void print_addr(uint32_t a)
{
	printf("%u.%u.%u.%u", a >> 24, (a >> 16) & 0xff, (a >> 8) & 0xff, a & 0xff);
}

void cmd_ping(const char *arg)
{
	uint32_t addr;
	unsigned long count = 4, received = 0;
	const char *rest = arg;

	if (!arg || parse_ipv4(arg, &addr)) {
		printf("usage: ping ADDR [COUNT] (ADDR a dotted quad, COUNT 1..%d)\n", PING_COUNT_MAX);
		return;
	}
	while (*rest && *rest != ' ')
		rest++;
	if (*rest) {
		char *end;

		count = strtoul(rest + 1, &end, 10);
		if (end == rest + 1 || *end || !count || count > PING_COUNT_MAX) {
			printf("ping: COUNT is 1..%d\n", PING_COUNT_MAX);
			return;
		}
	}
	for (unsigned long seq = 1; seq <= count; seq++) {
		struct tacet_ip_ping r;
		long err = tacet_ip_ping(addr, (unsigned int)seq, PING_WAIT_MS, &r);

		if (err) {
			printf("ping: %s\n", tacet_strerror(err));
			break;
		}
		if (r.answered) {
			received++;
			printf("64 bytes from ");
			print_addr(addr);
			printf(": icmp_seq=%lu ttl=%u time=%lu.%03lu ms\n", seq, r.ttl,
			       (unsigned long)(r.rtt_ns / 1000000u),
			       (unsigned long)(r.rtt_ns / 1000u % 1000u));
		} else {
			printf("no reply from ");
			print_addr(addr);
			printf(": icmp_seq=%lu\n", seq);
		}
		fflush(stdout);
	}
	printf("--- ");
	print_addr(addr);
	printf(" ping statistics ---\n%lu packets transmitted, %lu received, %lu%% packet loss\n",
	       count, received, (count - received) * 100 / count);
}
