/* irq_cycle_main.c: the bench_irq_cycle server: irq_server_cycle, the driver acknowledging and
 * waiting with tacet_irq_ack_wait (^bench_irq_cycle@1/200). */
#include "irq_cycle.h"

int main(void)
{
	return bench_irq_cycle("irq_server_cycle", 0);
}
