/* rawudp.h: UDP over IPv4 and Ethernet written by hand, for a raw network device client that
 * talks to servers/ip without an IP stack of its own: the UDP echo benchmark (bench_udp) and the
 * malformed-frames test (servers/tests/ipbadwire.c). Builds frames with their checksums, answers
 * and asks ARP, reads the fields back. Byte order: every value in host order, written big-endian.
 * The caller's thread only; no locking. */
#ifndef BENCH_RAWUDP_H
#define BENCH_RAWUDP_H

#include <stdint.h>
#include <tacet/netdev.h>

#define RAWUDP_IP_HLEN  20
#define RAWUDP_UDP_HLEN 8
#define RAWUDP_HLEN     (ETH_HLEN + RAWUDP_IP_HLEN + RAWUDP_UDP_HLEN) /* payload's offset */

struct rawudp {
	struct netdev *nd;         /* the session frames go through */
	uint32_t addr, peer_addr;  /* this client's and ip's IPv4 addresses */
	uint16_t port, peer_port;  /* this client's and the peer's UDP ports */
	uint8_t peer_mac[ETH_ALEN];
	int have_mac;              /* peer_mac known (an ARP reply or request from peer_addr) */
};

static inline void rawudp_put16(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 8), p[1] = (uint8_t)v;
}

static inline void rawudp_put32(uint8_t *p, uint32_t v)
{
	rawudp_put16(p, v >> 16), rawudp_put16(p + 2, v);
}

static inline uint32_t rawudp_get16(const uint8_t *p)
{
	return (uint32_t)p[0] << 8 | p[1];
}

static inline uint32_t rawudp_get32(const uint8_t *p)
{
	return rawudp_get16(p) << 16 | rawudp_get16(p + 2);
}

/* Write into f (RAWUDP_HLEN + len bytes of room) a datagram to the peer carrying payload (len
 * bytes), IP identification id, flags and fragment offset word frag; checksums computed.
 * Returns the frame's length. */
unsigned int rawudp_frame(const struct rawudp *r, uint8_t *f, const void *payload,
			  unsigned int len, uint32_t id, uint32_t frag);
/* Recompute the IPv4 header checksum of frame f (after a change to its header). */
void rawudp_ip_checksum(uint8_t *f);
/* Send an ARP packet: op 1 (a request for tpa, to everyone) or 2 (a reply to tha/tpa). */
void rawudp_arp(struct rawudp *r, uint32_t op, const uint8_t *tha, uint32_t tpa);
/* A received frame: if ARP, answered (a request for this client's address) and the peer's MAC
 * learnt; returns 1 if it was ARP, else 0. */
int rawudp_arp_input(struct rawudp *r, const uint8_t *f, unsigned int len);
/* A received frame's UDP payload from the peer's address and port to this client's: its
 * length (*payload set), or -1 if the frame is not that. */
long rawudp_payload(const struct rawudp *r, const uint8_t *f, unsigned int len,
		    const uint8_t **payload);
/* A test client of the second card beside ip: a notification of its own (*ntfn), ip's and
 * net0's endpoints looked up (*ip_ep, *net0_ep: waits up to 10 s for each), net1 opened on d
 * (256 buffers of 2048 bytes, signalling bit). 0 or a negative TACET_E* code. */
long rawudp_client_open(struct netdev *d, unsigned long *ntfn, unsigned long *ip_ep,
			unsigned long *net0_ep, unsigned long bit);

#endif
