/* rawudp.c: hand-written UDP/IPv4/Ethernet frames for a raw netdev client (rawudp.h). Pure
 * functions of their arguments but for the frames sent; the caller's thread, no locking. */
#include <string.h>
#include <tacet.h>
#include <tacet/net_defs.h>

#include "rawudp.h"

#define ARP_LEN 28

/* The Internet checksum's sum of len bytes (even), folded by fold. */
static uint32_t csum_add(uint32_t sum, const uint8_t *p, unsigned int len)
{
	for (unsigned int i = 0; i < len; i += 2)
		sum += rawudp_get16(p + i);
	return sum;
}

static uint32_t fold(uint32_t sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return ~sum & 0xffff;
}

static void eth_header(const struct rawudp *r, uint8_t *f, const uint8_t *dst, uint32_t type)
{
	memcpy(f, dst, ETH_ALEN);
	memcpy(f + ETH_ALEN, r->nd->mac, ETH_ALEN);
	rawudp_put16(f + 12, type);
}

void rawudp_ip_checksum(uint8_t *f)
{
	uint8_t *ip = f + ETH_HLEN;

	rawudp_put16(ip + 10, 0);
	rawudp_put16(ip + 10, fold(csum_add(0, ip, RAWUDP_IP_HLEN)));
}

unsigned int rawudp_frame(const struct rawudp *r, uint8_t *f, const void *payload,
			  unsigned int len, uint32_t id, uint32_t frag)
{
	uint8_t *ip = f + ETH_HLEN, *udp = ip + RAWUDP_IP_HLEN;
	uint32_t sum, ulen = RAWUDP_UDP_HLEN + len;

	eth_header(r, f, r->peer_mac, ETH_P_IPV4);
	memset(ip, 0, RAWUDP_IP_HLEN);
	ip[0] = 0x45, rawudp_put16(ip + 2, RAWUDP_IP_HLEN + ulen), ip[8] = 64, ip[9] = 17;
	rawudp_put16(ip + 4, id), rawudp_put16(ip + 6, frag);
	rawudp_put32(ip + 12, r->addr), rawudp_put32(ip + 16, r->peer_addr);
	rawudp_ip_checksum(f);
	rawudp_put16(udp, r->port), rawudp_put16(udp + 2, r->peer_port);
	rawudp_put16(udp + 4, ulen), rawudp_put16(udp + 6, 0);
	memcpy(udp + RAWUDP_UDP_HLEN, payload, len);
	sum = csum_add(17 + ulen, ip + 12, 8);
	if (len & 1)
		sum += (uint32_t)udp[ulen - 1] << 8, ulen--;
	sum = fold(csum_add(sum, udp, ulen));
	rawudp_put16(udp + 6, sum ? sum : 0xffff);
	return RAWUDP_HLEN + len;
}

void rawudp_arp(struct rawudp *r, uint32_t op, const uint8_t *tha, uint32_t tpa)
{
	static const uint8_t bcast[ETH_ALEN] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	uint8_t f[ETH_ZLEN] = { 0 }, *a = f + ETH_HLEN;

	eth_header(r, f, op == 1 ? bcast : tha, ETH_P_ARP);
	rawudp_put16(a, 1), rawudp_put16(a + 2, ETH_P_IPV4), a[4] = ETH_ALEN, a[5] = 4;
	rawudp_put16(a + 6, op);
	memcpy(a + 8, r->nd->mac, ETH_ALEN), rawudp_put32(a + 14, r->addr);
	memcpy(a + 18, tha, ETH_ALEN), rawudp_put32(a + 24, tpa);
	netdev_tx(r->nd, f, sizeof(f));
}

int rawudp_arp_input(struct rawudp *r, const uint8_t *f, unsigned int len)
{
	const uint8_t *a = f + ETH_HLEN;

	if (len < ETH_HLEN || rawudp_get16(f + 12) != ETH_P_ARP)
		return 0;
	if (len < ETH_HLEN + ARP_LEN || rawudp_get32(a + 24) != r->addr)
		return 1;
	if (rawudp_get16(a + 6) == 1)
		rawudp_arp(r, 2, a + 8, rawudp_get32(a + 14));
	if (rawudp_get32(a + 14) == r->peer_addr) {
		memcpy(r->peer_mac, a + 8, ETH_ALEN);
		r->have_mac = 1;
	}
	return 1;
}

long rawudp_payload(const struct rawudp *r, const uint8_t *f, unsigned int len,
		    const uint8_t **payload)
{
	const uint8_t *ip = f + ETH_HLEN, *udp = ip + RAWUDP_IP_HLEN;
	uint32_t ulen;

	if (len < RAWUDP_HLEN || rawudp_get16(f + 12) != ETH_P_IPV4 || ip[0] != 0x45 ||
	    ip[9] != 17 || rawudp_get32(ip + 12) != r->peer_addr ||
	    rawudp_get16(udp) != r->peer_port || rawudp_get16(udp + 2) != r->port)
		return -1;
	ulen = rawudp_get16(udp + 4);
	if (ulen < RAWUDP_UDP_HLEN || ulen > len - ETH_HLEN - RAWUDP_IP_HLEN)
		return -1;
	*payload = udp + RAWUDP_UDP_HLEN;
	return (long)(ulen - RAWUDP_UDP_HLEN);
}

long rawudp_client_open(struct netdev *d, unsigned long *ntfn, unsigned long *ip_ep,
			unsigned long *net0_ep, unsigned long bit)
{
	long slot = tacet_slot_alloc(), a = tacet_slot_alloc(), b = tacet_slot_alloc(), err;

	err = slot < 0 ? slot : a < 0 ? a : b < 0 ? b : tacet_ntfn_new((unsigned long)slot);
	*ntfn = (unsigned long)slot, *ip_ep = (unsigned long)a, *net0_ep = (unsigned long)b;
	if (!err)
		err = tacet_lookup("ip", *ip_ep, 10000);
	if (!err)
		err = tacet_lookup("net0", *net0_ep, 10000);
	if (!err)
		err = netdev_open(d, "net1", 256, 2048, *ntfn, bit);
	return err;
}
