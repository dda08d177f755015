/* quietscr.c: the quietown and quietbad servers (`quietown:ns16550a*1`), which show that what
 * init writes to a dead driver's device is the driver's own quiesce description, read from its
 * image, and nothing when that description is malformed. Each declares a description of the
 * 16550 (quietown.c, quietbad.c) that writes QUIET_SCRATCH into its scratch register (SCR,
 * which nothing else writes: not the kernel, not init); instance 0 writes DEAD_SCRATCH there
 * and faults; instance 1 (`*1`) prints what it finds. quietown's finds QUIET_SCRATCH (init
 * applied the image's description; IER 0 alone, the console's, leaves DEAD_SCRATCH); quietbad's
 * description also writes past the device's registers, so init refuses it whole and the
 * restart finds DEAD_SCRATCH. No IPC protocol. */
#include <stdio.h>
#include <tacet.h>
#include "quietscr.h"

int main(void)
{
	static struct tacet_device uart;
	unsigned long addr = 8;
	long err = tacet_device_open(&uart, "ns16550a", 0, TACET_DEVICE_NO_IRQ);

	if (err) {
		printf("%s: FAIL: open: %s\n", quiet_who, tacet_strerror(err));
		return 1;
	}
	printf("%s: instance %lu: scratch %#x at start\n", quiet_who, tacet_instance(),
	       mmio_read8(uart.regs + UART_SCR));
	if (tacet_instance())
		return 0; /* the second one only looks */
	mmio_write8(uart.regs + UART_SCR, DEAD_SCRATCH);
	printf("%s: scratch set to %#x; faulting\n", quiet_who, mmio_read8(uart.regs + UART_SCR));
	__asm__("" : "+r"(addr)); /* hidden from gcc, which would make a trap of its own */
	*(volatile unsigned long *)addr = 1;
	return 1;
}
