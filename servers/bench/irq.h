/* irq.h: the interrupt-latency benchmarks (irq.c), run as bench_irq_same and bench_irq_cross
 * with the PCI server and one QEMU edu device. */
#ifndef BENCH_IRQ_H
#define BENCH_IRQ_H

/* Time BENCH_SAMPLES interrupts raised by an edu register write on raiser_hart (the line is
 * routed there) and delivered to a thread waiting on waiter_hart, and report
 * irq_raise_to_trap and irq_top_half (if report_top_half) and the raise to the waiting thread
 * running as benchmark `name`. The calling thread must run at priority IRQ_PRIO_MAIN or above.
 * Then asks init to power off. Returns main()'s status. */
int bench_irq(const char *name, unsigned int waiter_hart, unsigned int raiser_hart,
	      int report_top_half);

#define IRQ_PRIO_MAIN 200

#endif
