/* mapdie: a process ends while one of its threads is held back inside MAP or UNMAP
 * (qemu/map-held-when-ended). A lower thread maps and unmaps a 256-page frame back to back;
 * main, more urgent on the same hart, wakes on a timer again and again, each time in the middle
 * of one of those calls (which holds itself back at a preemption point for main: the mapping
 * so far, or what is left to unmap, kept in the lower thread), then faults. The process ends
 * with the call still held: what it had mapped, or not yet unmapped, goes with the process
 * (process_held_end), and init's leak check finds every page and object back. */
#include <stdio.h>
#include <tacet.h>
#include <tacet/driver.h>
#include <tacet/init_proto.h>

#define SLOT_NTFN  TACET_CHILD_FIRST_FREE
#define SLOT_FRAME (TACET_CHILD_FIRST_FREE + 1)
#define MAP_VA     0x0000002400000000ul
#define WAKES      40
#define STACK      4096

static volatile int in_call; /* 1: the lower thread is in MAP, 2: in UNMAP, 0: neither */

static void mapper(void *arg)
{
	(void)arg;
	for (;;) {
		in_call = 1;
		tacet_map(TACET_CHILD_SELF, SLOT_FRAME, MAP_VA, TACET_RIGHT_READ);
		in_call = 2;
		tacet_unmap(TACET_CHILD_SELF, MAP_VA, TACET_FRAME_MAX_PAGES);
		in_call = 0;
	}
}

int main(void)
{
	static struct tacet_dma stack;
	struct tacet_self self;
	unsigned int during[3] = { 0 };
	unsigned long addr = 8;
	long err;

	tacet_self(&self);
	err = tacet_ntfn_new(SLOT_NTFN);
	if (!err)
		err = tacet_frame_new(SLOT_FRAME, TACET_FRAME_MAX_PAGES);
	if (!err)
		err = tacet_dma_alloc(STACK, &stack);
	if (!err) {
		long tid = tacet_thread_start(mapper, NULL, (unsigned long)stack.va + STACK,
					      TACET_SCHED(self.prio - 10, self.hart));

		err = tid < 0 ? tid : 0;
	}
	for (unsigned int i = 0; !err && i < WAKES; i++) {
		/* 10 to 60 us ahead: inside a MAP's or an UNMAP's few tens of microseconds */
		err = tacet_timer_set(SLOT_NTFN, 1, tacet_time() + tacet_ns_to_ticks(10000 + i * 1250));
		if (!err && tacet_wait(SLOT_NTFN) < 0)
			err = -TACET_EINVAL;
		during[in_call]++;
	}
	if (err) {
		printf("mapdie: FAIL: %s\n", tacet_strerror(err));
		return 1;
	}
	printf("mapdie: woke %d times: %u in MAP, %u in UNMAP, %u between; faulting with the "
	       "call held\n", WAKES, during[1], during[2], during[0]);
	/* the mapper is held inside its call while main runs (main is more urgent): once more if
	 * this wake-up came between two calls */
	while (!in_call && !tacet_timer_set(SLOT_NTFN, 1, tacet_time() + tacet_ns_to_ticks(20000)))
		tacet_wait(SLOT_NTFN);
	__asm__("" : "+r"(addr)); /* hidden from gcc, which would make a trap of its own */
	*(volatile unsigned long *)addr = 1; /* no page there */
	printf("mapdie: FAIL: the store did not fault\n");
	return 1;
}
