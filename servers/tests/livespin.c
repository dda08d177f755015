/* livespin: init's liveness check ends the spinner, not the healthy server its spin starves.
 * Started as `^%livespin@1` beside `blk:virtio-blk~10` and `rng:virtio-rng~20`, both on hart 0
 * at the drivers' priority (100); init's threads are on hart 0 too (its service thread below
 * the drivers, at 90).
 * It looks blk up and asks its capacity, throws an endless loop into rng (the faults kernel's
 * injector: the trace authority is its `%`), sets it spinning with a read from a thread of its
 * own, and while rng spins opens a session on blk: blk, healthy, asks init's service thread for
 * this client's grant, and that thread waits for hart 0 as long as rng spins. blk's question
 * thus goes unanswered past its 10 ms although blk is not at fault: it waits in a call, and
 * does not want its hart. init must let that question wait and end rng, whose own question goes
 * unanswered although it ran; the case (tests/qemu/cases_faults.py:
 * liveness-spinner-not-neighbour) counts init's lines: rng ended once, blk never. First,
 * TACET_INFO_PROCESS (what init looks at) with a bad slot or buffer, each refused with its
 * code, and of itself. Prints each check `livespin: ...: PASS` (or FAIL), the times to a
 * working driver (`livespin: rng answered again after N ms`, `livespin: blk's open answered
 * after N ms`), then `livespin: N checks, N failed` and powers off. No IPC
 * protocol. */
#include <stdio.h>
#include <string.h>
#include <tacet.h>
#include <tacet/blk.h>
#include <tacet/blk_client.h>
#include <tacet/init_proto.h>
#include <tacet/random.h>
#include "../faults/target.h"

#define TRIES 1000
#define STACK (4 * TACET_PAGE_SIZE)
#define BOUND_MS 250 /* rng's limit (20 ms) and a round, its end and restart, with room */
#define SLOT_BLK (TACET_CHILD_FIRST_FREE + 0)
#define SLOT_SELF (TACET_CHILD_FIRST_FREE + 1)

static unsigned int checks, failed;
static volatile int rng_done;
static volatile uint64_t rng_done_at;

static void expect_true(const char *what, int ok)
{
	checks++;
	failed += !ok;
	printf("livespin: %s: %s\n", what, ok ? "PASS" : "FAIL");
}

static int read_ok(void)
{
	unsigned char buf[16];
	long r = tacet_random(buf, sizeof(buf));

	if (r != sizeof(buf))
		printf("livespin: a read of rng: %s\n", tacet_strerror(r));
	return r == sizeof(buf);
}

/* The reader thread: its read meets rng's loop, and returns once rng's next instance answers. */
static void reader(void *arg)
{
	(void)arg;
	rng_done = read_ok() ? 1 : -1;
	rng_done_at = tacet_time_ns();
	tacet_exit(0);
}

static void expect(const char *what, long got, long want)
{
	checks++;
	failed += got != want;
	printf("livespin: %s -> %s%s\n", what, got ? tacet_strerror(got) : "0",
	       got == want ? ": PASS" : ": FAIL");
}

/* TACET_INFO_PROCESS (init's look at its servers) refuses a bad slot or buffer with its code,
 * and tells this process's own first thread: running, not preempted by a sleep (a wait is no
 * preemption). */
static void process_info_calls(const struct tacet_self *self, struct tacet_process_info *pi)
{
	struct tacet_process_info after = { 0 };
	long err = tacet_cap_copy(TACET_CHILD_SELF, SLOT_SELF, 0, 0);

	expect("INFO_PROCESS of slot 4096", tacet_process_info(4096, pi), -TACET_EBADSLOT);
	expect("INFO_PROCESS of an empty slot", tacet_process_info(SLOT_SELF + 1, pi),
	       -TACET_EEMPTY);
	expect("INFO_PROCESS of an endpoint", tacet_process_info(TACET_CHILD_INIT, pi),
	       -TACET_ETYPE);
	expect("INFO_PROCESS through a watch-only copy of itself",
	       err ? err : tacet_process_info(SLOT_SELF, pi), -TACET_EPERM);
	expect("INFO_PROCESS into too short a buffer",
	       tacet_info(TACET_INFO_PROCESS, TACET_CHILD_SELF, pi, sizeof(*pi) - 1), -TACET_ERANGE);
	expect("INFO_PROCESS into an unmapped buffer",
	       tacet_info(TACET_INFO_PROCESS, TACET_CHILD_SELF, (void *)8, sizeof(*pi)),
	       -TACET_EFAULT);
	tacet_cap_delete(SLOT_SELF);
	err = tacet_process_info(TACET_CHILD_SELF, pi);
	tacet_sleep_ns(1000000);
	if (!err)
		err = tacet_process_info(TACET_CHILD_SELF, &after);
	expect_true("INFO_PROCESS of itself: its thread, running, a sleep no preemption",
		    !err && pi->tid == self->tid && pi->state == TACET_THREAD_RUNNING &&
			    pi->threads == 1 && after.preemptions == pi->preemptions);
	*pi = after;
}

/* BLK_OPEN on the blk endpoint looked up before the spin (the lookup is init's service
 * thread's too): blk asks init for this client's grant. Reconnects if blk was ended. */
static long open_blk(void)
{
	uint64_t first = 0, sectors = 0;
	long err = tacet_cap_copy(TACET_CHILD_SELF, SLOT_SELF, 0, 0);

	if (!err)
		err = blk_call_open(SLOT_BLK, SLOT_SELF, &first, &sectors);
	if (err == -TACET_EDEAD && tacet_reconnect("blk", SLOT_BLK, 5000) == 0) {
		printf("livespin: blk ended while it waited for its grant\n");
		err = blk_call_open(SLOT_BLK, SLOT_SELF, &first, &sectors);
	}
	tacet_cap_delete(SLOT_SELF);
	return err;
}

/* A working blk: a session of lib's client, a sector read. */
static int blk_works(void)
{
	static struct tacet_blk b;
	long err = tacet_blk_open(&b, BLK_SECTOR, 5000);

	if (!err)
		err = tacet_blk_read(&b, 0, 1, 0);
	if (err)
		printf("livespin: blk: %s\n", tacet_strerror(err));
	tacet_blk_close(&b);
	return err == 0;
}

int main(void)
{
	static struct tacet_dma stack;
	struct tacet_self self = { 0 };
	struct tacet_process_info pi = { 0 }, after = { 0 };
	uint64_t capacity = 0, size = 0, ro = 0, t0, blk_ms;
	unsigned int tid;
	long r;

	tacet_self(&self);
	process_info_calls(&self, &pi);
	expect_true("a first read of rng", read_ok());
	r = tacet_lookup("blk", SLOT_BLK, 5000);
	if (!r)
		r = blk_call_info(SLOT_BLK, &capacity, &size, &ro);
	expect_true("blk looked up, its capacity asked", r == 0);
	tid = target_thread("rng");
	r = tacet_dma_alloc(STACK, &stack);
	expect_true("an endless loop at rng's pc",
		    r == 0 && target_inject(TACET_INJECT_HANG, tid, 0, 0, TRIES) > 0);
	/* this thread yields to the reader, whose read sets rng spinning, and blk's open follows
	 * within microseconds of it, before init can ask anyone again */
	t0 = tacet_time_ns();
	r = tacet_thread_start(reader, NULL, (unsigned long)stack.va + STACK,
			       TACET_SCHED(self.prio, self.hart));
	if (r >= 0)
		tacet_yield();
	r = r < 0 ? r : open_blk();
	blk_ms = (tacet_time_ns() - t0) / 1000000;
	tacet_process_info(TACET_CHILD_SELF, &after);
	expect_true("INFO_PROCESS of itself: its yield to the reader counted as a preemption",
		    after.preemptions == pi.preemptions + 1);
	printf("livespin: blk's open answered after %llu ms%s%s\n", (unsigned long long)blk_ms,
	       r < 0 ? ": " : "", r < 0 ? tacet_strerror(r) : "");
	expect_true("blk's open answered, within the bound", r == 0 && blk_ms < BOUND_MS);
	while (!rng_done)
		tacet_sleep_ns(1000000);
	printf("livespin: rng answered again after %llu ms\n",
	       (unsigned long long)((rng_done_at - t0) / 1000000));
	expect_true("the read after rng's loop answered (by its next instance), within the bound",
		    rng_done == 1 && (rng_done_at - t0) / 1000000 < BOUND_MS);
	expect_true("rng's looping instance has ended", target_thread("rng") != tid);
	expect_true("blk works (a session, a sector read)", blk_works());
	printf("livespin: %u checks, %u failed\n", checks, failed);
	tacet_poweroff(failed != 0);
	return 0;
}
