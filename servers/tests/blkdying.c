/* blkdying.c: with servers/blk/blk.c, the blk_dying server: the block service, whose first
 * instance faults once the device holds 16 requests (a driver killed with DMA in
 * flight). The cases (tests/qemu/cases_isolation.py, dma-kill-*) slow the device down (QEMU's
 * null-co latency, or its throttling) so that it still reads and writes for those requests
 * after the death: until init has reset it, and during the reset, which waits for them. Later
 * instances are the plain service. The kill is the driver's own doing; no client gets a way
 * to end a driver. */
#include <stdio.h>
#include <tacet.h>

#define DIE_AT 16

void blk_in_flight(unsigned int n);

void blk_in_flight(unsigned int n)
{
	unsigned long addr = 8;

	if (tacet_instance() || n < DIE_AT)
		return;
	printf("blk_dying: instance 0: %u requests at the device; faulting\n", n);
	__asm__("" : "+r"(addr)); /* hidden from gcc, which would make a trap of its own */
	*(volatile unsigned long *)addr = 1;
}
