/* rngdying.c: with servers/rng/rng.c, the rng_dying server: the entropy service, whose first
 * instance faults when a client's read must wait for the device, its buffers offered (a
 * driver killed with DMA in flight). The case (tests/qemu/cases_isolation.py,
 * dma-kill-rng) limits QEMU's entropy rate, so that the device holds the buffers and fills
 * them later. Later instances are the plain service. */
#include <stdio.h>
#include <tacet.h>

void rng_waits(unsigned int offered);

void rng_waits(unsigned int offered)
{
	unsigned long addr = 8;

	if (tacet_instance())
		return;
	printf("rng_dying: instance 0: a read waits for the device, which holds %u buffers; "
	       "faulting\n", offered);
	__asm__("" : "+r"(addr)); /* hidden from gcc, which would make a trap of its own */
	*(volatile unsigned long *)addr = 1;
}
