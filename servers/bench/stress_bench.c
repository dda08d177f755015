/* stress_bench.c: the bench_stress server: the tail of interrupt delivery under stress (the
 * protocol with the stressors and the harts' roles are in stress.h). Start it on the
 * last hart at priority IRQ_PRIO_MAIN, with the PCI server, an edu device and one stressor on
 * each hart but 0 and its own (4 harts: init.run=pci:...,stress_NAME=stress.1@1,
 * stress_NAME=stress.2@2,^bench_stress=stress.done@3/200: each publishes the name it is granted,
 * and bench_stress powers the machine off when done).
 *
 * With every stressor running it measures STRESS_SAMPLES interrupts of each path, as
 * bench_irq_same and bench_irq_cross do on an idle machine but with the driver's own loop
 * (bench_irq_path, stressed: tacet_irq_ack_wait, every round kept); the driver thread outranks
 * everything else on its hart (BENCH_WAITER_PRIO; the stressors run at init's 100). Then it
 * stops the stressors, waits for each one's done signal and reports, under names that
 * tests/bench/bench.py records per stressor:
 *   stress_same_hart      the raise to the driver running, line and driver on this hart;
 *   stress_cross_hart     the same, the line on hart 0 and the driver on this hart;
 *   stress_bkl_hold_max   one sample: the longest hold of the big kernel lock any hart saw in
 *                         the whole run (TACET_INFO_HART), printed with its hart and the trap
 *                         cause and call of the thread that hart went back to after it;
 * and, for each path, the instructions the machine ran while it was measured and the longest
 * raise-to-trap (from tacet_irq_ack_wait's stamps): how much of the tail comes before the
 * kernel's entry.
 */
#include <stdio.h>
#include <string.h>
#include <tacet.h>
#include "../tests/chains.h"
#include "bench.h"
#include "irq.h"
#include "stress.h"

#define STRESS_SAMPLES 100ul
#define STRESS_WARMUP  10ul
#define STRESS_PATHS   2 /* same hart, cross hart */
#define SLOT_DONE      IRQ_SLOT_FREE       /* ours, published as STRESS_DONE_NAME */
#define SLOT_STOP(h)   (IRQ_SLOT_FREE + 1 + (h)) /* the stressor on hart h's stop notification */

static struct bench_irq_path paths[STRESS_PATHS] = {
	{ .name = "stress_same_hart", .warmup = STRESS_WARMUP, .samples = STRESS_SAMPLES,
	  .stressed = 1 },
	{ .name = "stress_cross_hart", .raiser_hart = STRESS_LINE_HART, .warmup = STRESS_WARMUP,
	  .samples = STRESS_SAMPLES, .stressed = 1 },
};
static unsigned long to_server[STRESS_PATHS][STRESS_SAMPLES], to_trap_max[STRESS_PATHS];
static unsigned long took[STRESS_PATHS]; /* the machine's instructions while measured */

static struct stress_ctl ctl = { .done = SLOT_DONE, .stop = SLOT_STOP(0) };

int main(void)
{
	struct tacet_hart_info hold;
	struct tacet_self self;
	unsigned long hart;
	long err;

	tacet_self(&self);
	paths[0].waiter_hart = paths[0].raiser_hart = paths[1].waiter_hart = (unsigned int)self.hart;
	err = self.hart == STRESS_LINE_HART ? -TACET_EINVAL
		: stress_ctl_find(&ctl, 1ul << STRESS_LINE_HART | 1ul << self.hart);
	if (!err)
		err = stress_ctl_ready(&ctl);
	if (!err)
		err = stress_ctl_go(&ctl);
	if (!err)
		err = bench_irq_open();
	for (int p = 0; !err && p < STRESS_PATHS; p++) {
		unsigned long start = bench_rdcycle();

		err = bench_irq_path(&paths[p]);
		took[p] = bench_rdcycle() - start;
		memcpy(to_server[p], bench_irq_to_server, sizeof(to_server[p]));
		for (unsigned long i = 0; i < STRESS_SAMPLES; i++)
			if (bench_irq_to_trap[i] > to_trap_max[p])
				to_trap_max[p] = bench_irq_to_trap[i];
	}
	if (!err)
		err = stress_ctl_stop(&ctl);
	if (err) {
		printf("bench_stress: %s (stressors on harts %#lx)\n", tacet_strerror(err),
		       ctl.stressors);
		return 1;
	}
	hart = bkl_longest_hold(&hold);
	for (int p = 0; p < STRESS_PATHS; p++) {
		printf("bench_stress: %s: %lu rounds in %lu instructions; the longest raise to trap "
		       "%lu\n", paths[p].name, STRESS_WARMUP + STRESS_SAMPLES, took[p], to_trap_max[p]);
		bench_report(paths[p].name, to_server[p], STRESS_SAMPLES);
	}
	printf("bench_stress: %lu instructions since reset\n", bench_rdcycle());
	printf("bench_stress: longest BKL hold %lu instructions on hart %lu (cause %#lx, call %lu)\n",
	       hold.bkl_hold_max, hart, hold.bkl_hold_cause, hold.bkl_hold_call);
	bench_report("stress_bkl_hold_max", &hold.bkl_hold_max, 1);
	bench_power_off();
	return 0;
}
