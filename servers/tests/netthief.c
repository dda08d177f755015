/* netthief: a client of "net1" that starts before the stream's client and would take its frames
 * (tests/qemu/cases_net.py, net-receiver-grant): opens a session, so becoming net1's receiver
 * (the earliest started), sends one frame (which tells netpair_granted it has started), then
 * takes whatever it receives, forever, counting it. init.run= grants it nothing: once
 * netpair_granted, granted `[net1=receive]`, starts, net1's frames are that one's. No IPC
 * protocol of its own. */
#include <stdio.h>
#include <string.h>
#include <tacet.h>
#include <tacet/netdev.h>

int main(void)
{
	struct netdev nd;
	uint8_t hello[ETH_ZLEN] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	long slot = tacet_slot_alloc(), err;
	unsigned long got = 0;
	unsigned int len;
	void *f;

	err = slot < 0 ? slot : tacet_ntfn_new((unsigned long)slot);
	if (!err)
		err = netdev_open(&nd, "net1", 32, 2048, (unsigned long)slot, 1);
	if (!err) {
		memcpy(hello + ETH_ALEN, nd.mac, ETH_ALEN);
		err = netdev_tx(&nd, hello, sizeof(hello));
	}
	if (err) {
		printf("netthief: FAIL: %s\n", tacet_strerror(err));
		return 1;
	}
	printf("netthief: net1's receiver, waiting for frames\n");
	for (;;) {
		if (netdev_wait_ready(&nd, 0, 0) < 0)
			return 1;
		while (netdev_rx(&nd, &f, &len) == 1) {
			got++;
			netdev_rx_done(&nd, f);
		}
	}
}
