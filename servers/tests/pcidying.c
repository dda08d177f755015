/* pcidying.c: with servers/pci/pci.c, the pci_dying server: the PCI bus server, whose first
 * instance faults when a claimed function's driver ends, before it quiets the function (a
 * bus server that dies with a function left running). Its frames wait in the window's
 * DMA quarantine, which init does not release (it cannot quiet the functions); the next
 * instance quiets every function at its start and releases it (qemu/pci-dies-quarantine).
 * Later instances are the plain server. */
#include <stdio.h>
#include <tacet.h>

void pci_driver_ended(void);

void pci_driver_ended(void)
{
	unsigned long addr = 8;

	if (tacet_instance())
		return;
	printf("pci_dying: instance 0: a driver ended; faulting\n");
	__asm__("" : "+r"(addr)); /* hidden from gcc, which would make a trap of its own */
	*(volatile unsigned long *)addr = 1;
}
