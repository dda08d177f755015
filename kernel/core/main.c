/* main.c: boot sequence of the boot hart (kmain) and of the other harts (hart_main), and the
 * idle loop every hart ends in (or the power-off when there is no init to run). */
#include "arch.h"
#include "core/console.h"
#include "irq/irqchip.h"
#include "core/hart.h"
#include "irq/irq.h"
#include "test/ktest.h"
#include "mm/mm.h"
#include "core/panic.h"
#include "core/platform.h"
#include "core/rootserver.h"
#include "core/sched.h"
#include "core/timer.h"
#include "core/trace.h"

#define MIB (1024 * 1024)
#define HART_START_TIMEOUT_US 1000000

_Noreturn void kmain(unsigned long hwid, uint64_t dtb_pa);
_Noreturn void hart_main(unsigned long hwid, struct hart *h);

static void print_banner(void)
{
	kprintf("Tacet microkernel (riscv64, Sv39)\n");
	for (int i = 0; i < platform.nram; i++)
		kprintf("memory: %#lx-%#lx (%lu MiB)\n", (unsigned long)platform.ram[i].start,
			(unsigned long)platform.ram[i].end,
			(unsigned long)((platform.ram[i].end - platform.ram[i].start) / MIB));
	for (int i = 0; i < platform.nresv; i++)
		kprintf("reserved: %#lx-%#lx\n", (unsigned long)platform.resv[i].start,
			(unsigned long)platform.resv[i].end);
	kprintf("kernel: %#lx-%#lx, free pages: %lu of %lu\n",
		(unsigned long)arch_kernel_phys_start(), (unsigned long)arch_kernel_phys_end(),
		(unsigned long)mm_free_pages(), (unsigned long)mm_total_pages());
	kprintf("harts: %u in the device tree, boot hart %lu\n", nharts, harts[0].hwid);
	kprintf("timer: %s, %lu Hz; ipi: %s\n", arch_timer_name(),
		(unsigned long)platform.timebase_hz, arch_ipi_name());
	kprintf("irq: %s, %u lines\n", irq_chip ? irq_chip->name : "no controller",
		irq_chip ? irq_chip->nr_irqs : 0);
	kprintf("bootargs: \"%s\"\n", platform.bootargs);
	kprintf("devices:\n");
	platform_print_devices();
}

static void wake_up(void)
{
	/* the deadline itself is what the waiting loop looks at */
}

static unsigned int harts_online(void)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < nharts; i++)
		n += __atomic_load_n(&harts[i].online, __ATOMIC_ACQUIRE);
	return n;
}

/* Start the other harts and wait (in wfi: under -icount a spinning hart stalls the others)
 * until each has reported online or the timeout passed. */
static void start_secondaries(void)
{
	uint64_t deadline = timer_now() + timer_us_to_ticks(HART_START_TIMEOUT_US);

	for (unsigned int i = 1; i < nharts; i++) {
		int err = arch_hart_start(&harts[i]);

		if (err)
			kprintf("tacet: hart %lu did not start (SBI error %d)\n", harts[i].hwid, err);
	}
	timer_arm(deadline, wake_up);
	while (harts_online() < nharts && timer_now() < deadline)
		arch_idle_wait();
	timer_disarm();
	for (unsigned int i = 1; i < nharts; i++)
		if (!__atomic_load_n(&harts[i].online, __ATOMIC_ACQUIRE))
			kprintf("tacet: hart %lu is not online\n", harts[i].hwid);
}

static _Noreturn void boot_hart_continue(void)
{
	struct hart *me = this_hart();

	arch_hart_init(me);
	__atomic_store_n(&me->online, true, __ATOMIC_RELEASE);
	start_secondaries();
	kprintf("harts online: %u\n", harts_online());
	ktest_main();
	bkl_lock();
	if (rootserver_start() < 0) {
		/* nothing would ever run: end, so that neither a user nor a test waits for ever */
		kprintf("tacet: no init to run; powering off (exit status %d)\n",
			ROOTSERVER_FAIL_EXIT_CODE);
		platform_poweroff(ROOTSERVER_FAIL_EXIT_CODE);
	}
	bkl_unlock();
	sched_start_hart();
}

void kmain(unsigned long hwid, uint64_t dtb_pa)
{
	harts[0].hwid = hwid;
	kprintf("\ntacet: entered on hart %lu, device tree at %#lx\n", hwid, (unsigned long)dtb_pa);
	platform_init(dtb_pa);
	if (arch_platform_init(&platform.fdt) < 0)
		platform_poweroff(PANIC_EXIT_CODE);
	timer_clock_init();
	bkl_spin_init();
	mm_init();
	trace_init(); /* before arch_vm_init makes text read-only */
	irq_init();
	console_init(&platform.fdt);
	platform_init_devices();
	arch_vm_init(platform.ram, platform.nram);
	print_banner();
	for (unsigned int i = 0; i < nharts; i++)
		if (arch_hart_stacks_init(&harts[i]) < 0)
			panic("no memory for hart %u's stacks", i);
	arch_switch_to_kernel_stack(&harts[0], boot_hart_continue);
}

void hart_main(unsigned long hwid, struct hart *h)
{
	if (h->hwid != hwid)
		panic("hart %lu started with the state of hart %lu", hwid, h->hwid);
	arch_hart_init(h);
	__atomic_store_n(&h->online, true, __ATOMIC_RELEASE);
	hart_signal(&harts[0], IPI_WAKE);
	sched_start_hart();
}
