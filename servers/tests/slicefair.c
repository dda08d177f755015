/* slicefair: a thread preempted by a more urgent one keeps its place among its equals only for
 * the rest of the slice it was running in (kernel/core/sched.c). Three threads on this server's
 * hart: a spinner and a victim one below the entry's priority, and a busy thread at it, which
 * works BUSY_NS (more than a slice) then sleeps REST_NS, again and again. The spinner runs
 * whenever the busy one sleeps; the busy one's wake-up preempts it. The victim asks for the
 * hart ROUNDS times (a timer REST_NS ahead, then it is ready behind the spinner) and prints how
 * long it waited each time. A scheduler that puts a preempted thread back first in line
 * whatever its slice did starves the victim for ever (no line after `started`); the case's
 * timeout says so. main waits for the victim's last round, prints `slicefair: PASS` and exits 0.
 * No IPC protocol. */
#include <stdio.h>
#include <tacet.h>

#define ROUNDS     10
/* The victim waits through at most this many of the busy thread's rounds: it is ready behind
 * the spinner, which runs one of the busy thread's sleeps and then goes behind it. */
#define MAX_WAIT   3
#define BUSY_NS    6000000ull /* longer than a slice (5 ms) */
#define REST_NS    1000000ull
#define STACK_SIZE (4 * TACET_PAGE_SIZE)

static volatile unsigned long spins, busy_rounds;
static unsigned long busy_ntfn, victim_ntfn, done_ntfn; /* each thread's own, and main's */
static unsigned int rounds;
static unsigned long worst; /* the busy thread's rounds the victim waited through, at most */

static void spinner(void *unused)
{
	(void)unused;
	for (;;)
		spins++;
}

/* Works BUSY_NS of guest time, sleeps REST_NS, for ever. */
static void busy(void *unused)
{
	(void)unused;
	for (;;) {
		uint64_t until = tacet_time_ns() + BUSY_NS;

		while (tacet_time_ns() < until)
			;
		busy_rounds++;
		if (tacet_timer_set(busy_ntfn, 1, tacet_time() + tacet_ns_to_ticks(REST_NS)) ||
		    tacet_wait(busy_ntfn) < 0)
			tacet_exit(1);
	}
}

/* Asks for the hart ROUNDS times, then tells main. */
static void victim(void *unused)
{
	(void)unused;
	for (unsigned int r = 0; r < ROUNDS; r++) {
		unsigned long before = busy_rounds, waited;

		if (tacet_timer_set(victim_ntfn, 1, tacet_time() + tacet_ns_to_ticks(REST_NS)) ||
		    tacet_wait(victim_ntfn) < 0)
			break;
		waited = busy_rounds - before;
		worst = waited > worst ? waited : worst;
		printf("slicefair: round %u: the victim ran after %lu of the busy thread's rounds\n",
		       r, waited);
		rounds = r + 1;
	}
	tacet_signal(done_ntfn, 1);
	for (;;)
		tacet_wait(victim_ntfn);
}

static long start(void (*fn)(void *), unsigned long prio, unsigned long hart)
{
	struct tacet_dma stack;
	long err = tacet_dma_alloc(STACK_SIZE, &stack);

	if (!err)
		err = tacet_thread_start(fn, NULL, (unsigned long)stack.va + STACK_SIZE,
					 TACET_SCHED(prio, hart));
	return err < 0 ? err : 0;
}

static long notification(unsigned long *slot)
{
	long s = tacet_slot_alloc();

	*slot = (unsigned long)s;
	return s < 0 ? s : tacet_ntfn_new(*slot);
}

int main(void)
{
	struct tacet_self self = { 0 };
	long err;

	tacet_self(&self);
	err = notification(&busy_ntfn);
	if (!err)
		err = notification(&victim_ntfn);
	if (!err)
		err = notification(&done_ntfn);
	if (!err)
		err = start(spinner, self.prio - 1, self.hart);
	if (!err)
		err = start(victim, self.prio - 1, self.hart);
	if (!err)
		err = start(busy, self.prio, self.hart);
	if (err) {
		printf("slicefair: cannot start its threads: %s\n", tacet_strerror(err));
		return 1;
	}
	printf("slicefair: started: a spinner and the victim at %lu, a busy thread at %lu on hart "
	       "%lu\n", self.prio - 1, self.prio, self.hart);
	if (tacet_wait(done_ntfn) < 0)
		return 1;
	printf("slicefair: %u rounds, the longest wait %lu busy rounds (at most %d), the spinner "
	       "ran too (%s): %s\n", rounds, worst, MAX_WAIT, spins ? "yes" : "no",
	       rounds == ROUNDS && worst <= MAX_WAIT && spins ? "PASS" : "FAIL");
	return rounds == ROUNDS && worst <= MAX_WAIT && spins ? 0 : 1;
}
