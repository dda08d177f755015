/* typeahead.c: with servers/uart/uart.c, the uart_typeahead server: the console server itself,
 * which, before it sets the UART up, asks for a key on the kernel's debug output and waits
 * until one is in the UART's receiver. What was typed before the console was up is the
 * shell's first line (qemu case console-typeahead). */
#include <stdio.h>
#include <tacet.h>

#define UART_LSR    5
#define UART_LSR_DR 0x01

void uart_starting(volatile uint8_t *regs);

void uart_starting(volatile uint8_t *regs)
{
	printf("typeahead: the console is not up yet; type now\n");
	fflush(stdout);
	while (!(mmio_read8(regs + UART_LSR) & UART_LSR_DR))
		tacet_sleep_ns(1000000);
	printf("typeahead: a key is waiting in the UART\n");
	fflush(stdout);
}
