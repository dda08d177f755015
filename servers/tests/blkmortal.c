/* blkmortal.c: with servers/blk/blk.c, the blk_mortal server: the block service, whose first
 * ten instances each fault at their third submission to the device (qemu/blk-client-outlives-
 * restarts: a client lives through ten restarts of its service). Each instance watches the
 * client's process (PROCESS_WATCH) with its own notification; the watch ends with the
 * instance, so the eleventh still finds a place. Later instances are the plain service. */
#include <stdio.h>
#include <tacet.h>

#define MORTAL_INSTANCES 10
#define DIE_AT 3

void blk_in_flight(unsigned int n);

void blk_in_flight(unsigned int n)
{
	static unsigned int submissions;
	unsigned long addr = 8;

	(void)n;
	if (tacet_instance() >= MORTAL_INSTANCES || ++submissions < DIE_AT)
		return;
	printf("blk_mortal: instance %lu: submission %u; faulting\n", tacet_instance(),
	       submissions);
	__asm__("" : "+r"(addr)); /* hidden from gcc, which would make a trap of its own */
	*(volatile unsigned long *)addr = 1;
}
