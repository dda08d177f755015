/* boot.c: with servers/uart/uart.c, the bench_boot server: the console server itself, which at
 * its first prompt reports the cycle counter as `BENCH boot_to_shell` (one sample) and powers
 * the machine off. Under -icount the counter has counted every instruction retired since reset
 * (OpenSBI, the kernel's boot, init, this server's start), so the figure is the boot to the
 * shell prompt, the same on every run. tests/bench/bench.py boots it at several memory sizes. */
#include <stdio.h>
#include "bench.h"

int uart_first_prompt(void);

int uart_first_prompt(void)
{
	unsigned long at = bench_rdcycle();

	printf("\n"); /* the prompt ends without one; bench.py reads whole lines */
	bench_overhead(); /* printed for bench.py; a count since reset has nothing to subtract */
	bench_report("boot_to_shell", &at, 1);
	return 1;
}
