/* netvictim: a client of "net1" that dies with its receive buffers at the device
 * (tests/qemu/cases_net.py, net-client-dies): opens a session (the receiver), waits for one frame
 * (netreap sends them from net0's NIC), so that its buffers are surely offered to the device,
 * then faults with the session open. No IPC protocol of its own. */
#include <stdio.h>
#include <tacet.h>
#include <tacet/netdev.h>

int main(void)
{
	struct netdev nd;
	long slot = tacet_slot_alloc(), err;
	unsigned long addr = 8;
	unsigned int len;
	void *f;

	err = slot < 0 ? slot : tacet_ntfn_new((unsigned long)slot);
	if (!err)
		err = netdev_open(&nd, "net1", 32, 2048, (unsigned long)slot, 1);
	if (err) {
		printf("netvictim: FAIL: opening net1: %s\n", tacet_strerror(err));
		return 1;
	}
	while (netdev_rx(&nd, &f, &len) != 1)
		netdev_wait_ready(&nd, 0, 0);
	printf("netvictim: a frame of %u bytes came; faulting with 31 buffers at the device\n",
	       len);
	__asm__("" : "+r"(addr)); /* hidden from gcc, which would make a trap of its own */
	*(volatile unsigned long *)addr = 1;
	return 0;
}
