/* netdying.c: with servers/net's files, the net_dying server: the network device service, whose
 * first instance faults once it has handed DIE_AT received frames to its client, its receive
 * queue stocked with the client's buffers (a driver killed with DMA offered into another
 * process's memory). Later instances are the plain service. The kill is the driver's own
 * doing; no client gets a way to end a driver. */
#include <stdint.h>
#include <stdio.h>
#include <tacet.h>

#define DIE_AT 300

void net_received(uint64_t frames);

void net_received(uint64_t frames)
{
	unsigned long addr = 8;

	if (tacet_instance() || frames < DIE_AT)
		return;
	printf("net_dying: instance 0: %llu frames received; faulting\n",
	       (unsigned long long)frames);
	__asm__("" : "+r"(addr)); /* hidden from gcc, which would make a trap of its own */
	*(volatile unsigned long *)addr = 1;
}
