/* netreap: checks that net frees a dead client's session (tests/qemu/cases_net.py,
 * net-client-dies). Waits for netvictim's session on "net1", sends frames from "net0"'s NIC
 * until net1 says the session is gone, then asks net1 what it still holds for clients
 * (NET_USAGE): nothing open, no ended session whose buffers the device holds, no capability
 * slot kept; one device reset (how net takes the receiver's buffers back). Then opens net1
 * itself and receives FRAMES frames from net0: the device works after. Powers the machine off
 * (its entry's `^`), status 0 when every check passed. No IPC protocol of its own. */
#include <stdio.h>
#include <string.h>
#include <tacet.h>
#include <tacet/net_client.h>
#include <tacet/netdev.h>

#define FRAMES 100
#define TRIES  10000 /* 1 ms apart */

static struct netdev a, b;

static void usage(unsigned long ep, uint64_t u[4])
{
	memset(u, 0xff, 4 * sizeof(*u));
	net_call_usage(ep, &u[0], &u[1], &u[2], &u[3]);
}

static void send_one(void)
{
	uint8_t f[ETH_ZLEN] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };

	memcpy(f + ETH_ALEN, a.mac, ETH_ALEN);
	f[12] = 0x88, f[13] = 0xb5;
	netdev_poll(&a, 0);
	netdev_tx(&a, f, sizeof(f));
}

/* Frames from net0 until net1's sessions and held buffers are all gone (0), or TRIES ms. */
static int victim_reaped(unsigned long ep, uint64_t u[4])
{
	int tries = 0, seen = 0;

	for (usage(ep, u); tries < TRIES && !(seen && !u[0] && !u[1]); tries++) {
		seen |= u[0] != 0; /* its session was open */
		send_one();
		tacet_sleep_ns(1000000);
		usage(ep, u);
	}
	return seen && !u[0] && !u[1];
}

int main(void)
{
	long slot = tacet_slot_alloc(), ep = tacet_slot_alloc(), err;
	uint64_t u[4];
	unsigned int got = 0, len;
	int ok, failed = 0;
	void *f;

	err = slot < 0 || ep < 0 ? -TACET_ENOMEM : tacet_ntfn_new((unsigned long)slot);
	if (!err)
		err = tacet_lookup("net1", (unsigned long)ep, TRIES);
	if (!err)
		err = netdev_open(&a, "net0", 32, 2048, (unsigned long)slot, 1);
	if (err) {
		printf("netreap: FAIL: %s\n", tacet_strerror(err));
		tacet_poweroff(1);
		return 1;
	}
	ok = victim_reaped((unsigned long)ep, u) && !u[2] && u[3] == 1;
	printf("netreap: the victim's session on net1 ended: %llu open, %llu held for the device, "
	       "%llu capability slots kept, %llu device reset(s): %s\n", (unsigned long long)u[0],
	       (unsigned long long)u[1], (unsigned long long)u[2], (unsigned long long)u[3],
	       ok ? "PASS" : "FAIL");
	failed |= !ok;
	err = netdev_open(&b, "net1", 32, 2048, (unsigned long)slot, 2);
	while (!err && got < FRAMES) {
		send_one();
		if (netdev_wait_ready(&b, 0, 0) == 1)
			while (netdev_rx(&b, &f, &len) == 1) {
				got++;
				netdev_rx_done(&b, f);
			}
	}
	ok = !err && got >= FRAMES;
	printf("netreap: a new session on net1 receives %u frames: %s\n", got,
	       ok ? "PASS" : "FAIL");
	failed |= !ok;
	printf("netreap: %s\n", failed ? "FAIL" : "all checks passed");
	tacet_poweroff(failed);
	return failed;
}
