/* netarp: a client of "net0" on QEMU's user network (tests/qemu/cases_net.py, net-arp): sends a
 * hand-built ARP request for the gateway, 10.0.2.2, from 10.0.2.15 (the address QEMU's DHCP
 * would lease), and waits for the gateway's reply addressed to this NIC, which proves frames
 * reach the host's network and come back. Ignores anything else that arrives. Powers the
 * machine off (its entry's `^`), status 0 when the reply came. No IPC protocol of its own. */
#include <stdio.h>
#include <string.h>
#include <tacet.h>
#include <tacet/netdev.h>

#define ARP_LEN     (ETH_HLEN + 28)
#define ARP_REQUEST 1
#define ARP_REPLY   2
#define TRIES       20          /* requests sent, one a wait */
#define WAIT_NS     500000000ull

static const uint8_t self_ip[4] = { 10, 0, 2, 15 }, gateway_ip[4] = { 10, 0, 2, 2 };

static void arp_request(uint8_t *f, const uint8_t *mac)
{
	static const uint8_t head[8] = { 0, 1, 8, 0, 6, 4, 0, ARP_REQUEST }; /* Ethernet, IPv4 */

	memset(f, 0xff, ETH_ALEN);
	memcpy(f + ETH_ALEN, mac, ETH_ALEN);
	f[12] = ETH_P_ARP >> 8, f[13] = ETH_P_ARP & 0xff;
	memcpy(f + 14, head, sizeof(head));
	memcpy(f + 22, mac, ETH_ALEN);
	memcpy(f + 28, self_ip, 4);
	memset(f + 32, 0, ETH_ALEN);
	memcpy(f + 38, gateway_ip, 4);
}

/* The gateway's MAC if f is its ARP reply to us. */
static int arp_reply(const uint8_t *f, unsigned int len, const uint8_t *mac, uint8_t *gw)
{
	if (len < ARP_LEN || memcmp(f, mac, ETH_ALEN) || f[12] != ETH_P_ARP >> 8 ||
	    f[13] != (ETH_P_ARP & 0xff) || f[21] != ARP_REPLY || memcmp(f + 28, gateway_ip, 4) ||
	    memcmp(f + 38, self_ip, 4))
		return 0;
	memcpy(gw, f + 22, ETH_ALEN);
	return 1;
}

int main(void)
{
	struct netdev nd;
	uint8_t req[ETH_ZLEN] = { 0 }, gw[ETH_ALEN];
	long slot = tacet_slot_alloc(), err;
	int found = 0;

	err = slot < 0 ? slot : tacet_ntfn_new((unsigned long)slot);
	if (!err)
		err = netdev_open(&nd, "net0", 16, 2048, (unsigned long)slot, 1);
	if (err) {
		printf("netarp: FAIL: opening net0: %s\n", tacet_strerror(err));
		tacet_poweroff(1);
		return 1;
	}
	arp_request(req, nd.mac);
	for (int t = 0; t < TRIES && !found; t++) {
		void *f;
		unsigned int len;

		netdev_tx(&nd, req, sizeof(req));
		while (!found && netdev_wait_ready(&nd, 0, WAIT_NS) == 1)
			while (!found && netdev_rx(&nd, &f, &len) == 1) {
				found = arp_reply(f, len, nd.mac, gw);
				netdev_rx_done(&nd, f);
			}
	}
	printf("netarp: who-has 10.0.2.2 tell 10.0.2.15 from %02x:%02x:%02x:%02x:%02x:%02x: ",
	       nd.mac[0], nd.mac[1], nd.mac[2], nd.mac[3], nd.mac[4], nd.mac[5]);
	if (found)
		printf("10.0.2.2 is at %02x:%02x:%02x:%02x:%02x:%02x: PASS\n", gw[0], gw[1], gw[2],
		       gw[3], gw[4], gw[5]);
	else
		printf("no reply: FAIL\n");
	netdev_close(&nd);
	tacet_poweroff(!found);
	return !found;
}
