/* faulter.c: a server that loads from address 0, for the fault-reporting test: init must
 * report the load page fault (cause 13, address 0) and end it. No IPC protocol. */
#include <stdio.h>

int main(void)
{
	unsigned long addr = 0;

	/* hide the 0 from gcc, which would turn a known null dereference into a trap of its own */
	__asm__("" : "+r"(addr));
	printf("faulter: loading from address %#lx\n", addr);
	(void)*(volatile unsigned long *)addr;
	printf("faulter: FAIL the load from address 0 returned\n");
	return 1;
}
