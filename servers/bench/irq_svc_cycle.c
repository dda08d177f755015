/* irq_svc_cycle.c: the bench_irq_svc_cycle server: irq_service_cycle, the driver a service loop
 * (tacet_irq_ack, then a receive as the notification's bound thread)
 * (^bench_irq_svc_cycle@1/200). */
#include "irq_cycle.h"

int main(void)
{
	return bench_irq_cycle("irq_service_cycle", 1);
}
