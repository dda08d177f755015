/* ping.c: ICMP echo requests on lwIP's raw API (ping.h). One raw PCB for ICMP; one request
 * outstanding, matched by identifier and sequence number and by its payload, which must come
 * back whole; replies to anything else are left to lwIP (the PCB does not eat them). The
 * timeout is an lwIP timer. Portable C over lwIP alone (the host test links it); runs in the
 * thread that runs lwIP, so nothing is locked. */
#include "ping.h"

#include <string.h>

#include "lwip/def.h"
#include "lwip/inet_chksum.h"
#include "lwip/ip.h"
#include "lwip/pbuf.h"
#include "lwip/prot/icmp.h"
#include "lwip/prot/ip4.h"
#include "lwip/raw.h"
#include "lwip/timeouts.h"

#define PING_ID 0x7ace

static struct raw_pcb *pcb;
static uint64_t (*clock_ns)(void);
static struct {
	int busy;
	uint16_t seq;
	uint64_t sent_ns;
	ping_done_fn done;
	void *arg;
} out;

static uint8_t payload_byte(uint16_t seq, unsigned int i)
{
	return (uint8_t)(seq * 7 + i);
}

static void finish(int ok, uint64_t rtt_ns, unsigned int ttl)
{
	ping_done_fn done = out.done;

	out.busy = 0;
	done(out.arg, ok, rtt_ns, ttl);
}

static void ping_timeout(void *arg)
{
	(void)arg;
	if (out.busy)
		finish(0, 0, 0);
}

/* Is p (an IPv4 packet, header included) the reply to the outstanding request? */
static int is_our_reply(struct pbuf *p, unsigned int *ttl)
{
	struct ip_hdr ip;
	struct icmp_echo_hdr echo;
	uint8_t data[PING_PAYLOAD];
	u16_t hlen;

	if (pbuf_copy_partial(p, &ip, sizeof(ip), 0) != sizeof(ip))
		return 0;
	hlen = IPH_HL_BYTES(&ip);
	if (hlen < sizeof(ip) || p->tot_len != hlen + sizeof(echo) + PING_PAYLOAD)
		return 0;
	if (pbuf_copy_partial(p, &echo, sizeof(echo), hlen) != sizeof(echo) ||
	    pbuf_copy_partial(p, data, PING_PAYLOAD, hlen + sizeof(echo)) != PING_PAYLOAD)
		return 0;
	if (echo.type != ICMP_ER || echo.id != PP_HTONS(PING_ID) || echo.seqno != lwip_htons(out.seq))
		return 0;
	for (unsigned int i = 0; i < PING_PAYLOAD; i++)
		if (data[i] != payload_byte(out.seq, i))
			return 0;
	*ttl = IPH_TTL(&ip);
	return 1;
}

static u8_t ping_recv(void *arg, struct raw_pcb *rpcb, struct pbuf *p, const ip_addr_t *addr)
{
	unsigned int ttl;

	(void)arg;
	(void)rpcb;
	(void)addr;
	if (!out.busy || !is_our_reply(p, &ttl))
		return 0; /* not ours: lwIP goes on with it */
	sys_untimeout(ping_timeout, NULL);
	pbuf_free(p);
	finish(1, clock_ns() - out.sent_ns, ttl);
	return 1;
}

int ping_init(const ip_addr_t *local, uint64_t (*clock)(void))
{
	pcb = raw_new(IP_PROTO_ICMP);
	if (!pcb)
		return ERR_MEM;
	raw_bind(pcb, local);
	raw_recv(pcb, ping_recv, NULL);
	clock_ns = clock;
	return 0;
}

static struct pbuf *echo_request(uint16_t seq)
{
	struct pbuf *p = pbuf_alloc(PBUF_IP, sizeof(struct icmp_echo_hdr) + PING_PAYLOAD, PBUF_RAM);
	struct icmp_echo_hdr *echo;
	uint8_t *data;

	if (!p)
		return NULL;
	echo = p->payload;
	data = (uint8_t *)(echo + 1);
	ICMPH_TYPE_SET(echo, ICMP_ECHO);
	ICMPH_CODE_SET(echo, 0);
	echo->chksum = 0;
	echo->id = PP_HTONS(PING_ID);
	echo->seqno = lwip_htons(seq);
	for (unsigned int i = 0; i < PING_PAYLOAD; i++)
		data[i] = payload_byte(seq, i);
	echo->chksum = inet_chksum(echo, p->len);
	return p;
}

int ping_send(const ip_addr_t *dst, uint16_t seq, uint32_t timeout_ms, ping_done_fn done,
	      void *arg)
{
	struct pbuf *p;
	err_t err;

	if (out.busy)
		return ERR_INPROGRESS;
	p = echo_request(seq);
	if (!p)
		return ERR_MEM;
	out.seq = seq;
	out.sent_ns = clock_ns();
	err = raw_sendto(pcb, p, dst);
	pbuf_free(p);
	if (err != ERR_OK)
		return err;
	out.busy = 1;
	out.done = done;
	out.arg = arg;
	sys_timeout(timeout_ms, ping_timeout, NULL);
	return 0;
}
