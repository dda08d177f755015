/* ipdying.c: with servers/ip's sources, the ip_dying server: the IP stack, whose first instance
 * faults once it has handed DIE_AT messages to its socket clients, with their sessions open.
 * Later instances are the plain stack. The kill is the stack's own doing. */
#include <stdio.h>
#include <tacet.h>

#define DIE_AT 200

void ip_handed(unsigned long messages);

void ip_handed(unsigned long messages)
{
	unsigned long addr = 8;

	if (tacet_instance() || messages < DIE_AT)
		return;
	printf("ip_dying: instance 0: %lu messages handed; faulting\n", messages);
	__asm__("" : "+r"(addr)); /* hidden from gcc, which would make a trap of its own */
	*(volatile unsigned long *)addr = 1;
}
