/* injectbad: the faults kernel's injector (TACET_SYS_INJECT) refuses every bad call with its
 * code, and two faults it throws into the entropy driver are survived. Started as
 * `^%injectbad@1` beside `rng:virtio-rng*3~200` (the trace authority is the injector's; rng is
 * asked whether it is alive, 200 ms at most). Prints `injectbad: WHAT -> ERROR: PASS` per bad
 * call (and per bad PROCESS_END, init's end of a server that stopped answering); then faults
 * into what rng's device is given (a word of its rings, pinned for DMA, and its record of their
 * physical address), found by probes and refused without TACET_INJECT_DMA; then rng's
 * stack pointer flipped (it faults at the next read, init restarts it, the read reconnects)
 * and an endless loop at rng's pc (init's liveness thread ends it, the read reconnects), each
 * `... : PASS`; then `injectbad: N checks, N failed` and powers off. On a
 * kernel without the injector: `injectbad: no injector in this kernel (not implemented): PASS`.
 * No IPC protocol. */
#include <stdio.h>
#include <tacet.h>
#include <tacet/init_proto.h>
#include <tacet/random.h>
#include "../faults/target.h"

#define NO_SUCH_TID 0x7fffffful
#define SP_BIT 40 /* far outside the stack: the next store faults */
#define TRIES 1000
#define SLOT_EMPTY (TACET_CHILD_FIRST_FREE + 0)
#define SLOT_WATCH_ONLY (TACET_CHILD_FIRST_FREE + 1)
#define PROBE_WORDS (1ul << 16) /* more than rng's writable words: `where` wraps past them */
#define NONE (~0ul)

static unsigned int checks, failed;

static void expect(const char *what, long got, long want)
{
	checks++;
	if (got == want) {
		printf("injectbad: %s -> %s: PASS\n", what, want ? tacet_strerror(want) : "0");
		return;
	}
	failed++;
	printf("injectbad: %s -> %s, expected %s: FAIL\n", what, got ? tacet_strerror(got) : "0",
	       want ? tacet_strerror(want) : "0");
}

static void expect_true(const char *what, int ok)
{
	checks++;
	failed += !ok;
	printf("injectbad: %s: %s\n", what, ok ? "PASS" : "FAIL");
}

/* Each call with one bad argument, the rest good (rng's thread tid). */
static void bad_calls(unsigned int tid)
{
	struct tacet_self self = { 0 };

	tacet_self(&self);
	expect("without the trace authority (slot 0)",
	       tacet_inject(TACET_INJECT_REG, 0, tid, 2, 1), -TACET_EPERM);
	expect("with init's endpoint for the authority",
	       tacet_inject(TACET_INJECT_REG, TACET_CHILD_INIT, tid, 2, 1), -TACET_EPERM);
	expect("into its own thread (no driver)",
	       target_inject(TACET_INJECT_REG, self.tid, 2, 1, TRIES), -TACET_EPERM);
	expect("into init's thread (no driver)",
	       target_inject(TACET_INJECT_REG, target_thread("init"), 2, 1, TRIES), -TACET_EPERM);
	expect("into no thread", target_inject(TACET_INJECT_REG, NO_SUCH_TID, 2, 1, TRIES),
	       -TACET_ENOENT);
	expect("an op past the last", target_inject(TACET_INJECT_OPS, tid, 0, 0, TRIES),
	       -TACET_EINVAL);
	expect("register x0", target_inject(TACET_INJECT_REG, tid, 0, 1, TRIES), -TACET_EINVAL);
	expect("register 33", target_inject(TACET_INJECT_REG, tid, TACET_INJECT_REG_PC + 1, 1, TRIES),
	       -TACET_EINVAL);
	expect("register bit 64", target_inject(TACET_INJECT_REG, tid, 2, 64, TRIES), -TACET_EINVAL);
	expect("instruction bit 32", target_inject(TACET_INJECT_TEXT_FLIP, tid, 0, 32, TRIES),
	       -TACET_EINVAL);
	expect("an instruction of 33 bits",
	       target_inject(TACET_INJECT_TEXT_SET, tid, 0, 1ul << 32, TRIES), -TACET_EINVAL);
	expect("a hang with a value", target_inject(TACET_INJECT_HANG, tid, 0, 1, TRIES),
	       -TACET_EINVAL);
	expect("garbage for a reply made from 0", target_inject(TACET_INJECT_REPLY, tid, 0, 0, TRIES),
	       -TACET_EINVAL);
	expect("a deaf driver with a value", target_inject(TACET_INJECT_DEAF, tid, 0, 1, TRIES),
	       -TACET_EINVAL);
	/* waiting in its receive (or running): not stopped by an interrupt in its work */
	expect("a busy fault into rng, which no interrupt stopped",
	       tacet_inject(TACET_INJECT_REG | TACET_INJECT_BUSY, TACET_CHILD_TRACE, tid, 2, 1),
	       -TACET_EBUSY);
}

/* PROCESS_END (init's end of a server that stopped answering) with a bad capability. */
static void bad_ends(void)
{
	long err = tacet_cap_copy(TACET_CHILD_SELF, SLOT_WATCH_ONLY, 0, 0);

	expect("PROCESS_END of an empty slot", tacet_process_end(SLOT_EMPTY), -TACET_EEMPTY);
	expect("PROCESS_END of an endpoint", tacet_process_end(TACET_CHILD_INIT), -TACET_ETYPE);
	expect("PROCESS_END through a watch-only copy of itself",
	       err ? err : tacet_process_end(SLOT_WATCH_ONLY), -TACET_EPERM);
	tacet_cap_delete(SLOT_WATCH_ONLY);
}

/* A read of the entropy service: len bytes, whatever instance answers. */
static int read_ok(void)
{
	unsigned char buf[16];
	long r = tacet_random(buf, sizeof(buf));

	if (r != sizeof(buf))
		printf("injectbad: a read of rng: %s\n", tacet_strerror(r));
	return r == sizeof(buf);
}

/* The first data word of thread tid's process (its `where`) in which the injector finds `what`
 * (TACET_INJECT_FOUND_*), by probes: nothing changed. NONE if none. */
static unsigned long probe_for(unsigned int tid, unsigned long what)
{
	for (unsigned long w = 0; w < PROBE_WORDS; w++) {
		unsigned long found = 0;
		long r = target_inject_found(TACET_INJECT_DATA | TACET_INJECT_DMA | TACET_INJECT_PROBE,
					     tid, w, 0, TRIES, &found);

		if (r < 0)
			return NONE;
		if (found & what)
			return w;
	}
	return NONE;
}

/* Data faults into what rng's device is given, refused without TACET_INJECT_DMA (the device
 * would DMA where the word says, and nothing confines it): a word of a frame pinned for DMA
 * (its virtqueue's rings) and a word holding a DMA address (lib's record of the rings'). rng
 * answers on, the same instance. */
static void dma_faults(unsigned int tid)
{
	unsigned long pinned = probe_for(tid, TACET_INJECT_FOUND_PINNED);
	unsigned long address = probe_for(tid, TACET_INJECT_FOUND_DMA_ADDRESS);

	expect_true("a probe finds a word of rng pinned for DMA", pinned != NONE);
	expect_true("a probe finds a word of rng holding a DMA address", address != NONE);
	expect("a data fault into the word pinned for DMA",
	       target_inject(TACET_INJECT_DATA, tid, pinned, 0, TRIES), -TACET_ENODEV);
	expect("a data fault into the DMA address",
	       target_inject(TACET_INJECT_DATA, tid, address, 0, TRIES), -TACET_ENODEV);
	expect_true("a read after both: answered by the same instance",
		    read_ok() && target_thread("rng") == tid);
}

/* rng's thread now, once it is another than `old` (its restart), and in its service loop. */
static unsigned int next_instance(unsigned int old)
{
	unsigned int tid = target_thread("rng");

	for (unsigned int i = 0; i < TRIES && (!tid || tid == old); i++) {
		tacet_sleep_ns(1000000);
		tid = target_thread("rng");
	}
	read_ok(); /* a read answered: its loop is receiving again */
	return tid;
}

int main(void)
{
	unsigned int tid, old;
	long r = tacet_inject(TACET_INJECT_REG, TACET_CHILD_TRACE, NO_SUCH_TID, 2, 1);

	if (r == -TACET_ENOSYS) {
		printf("injectbad: no injector in this kernel (%s): PASS\n", tacet_strerror(r));
		tacet_poweroff(0);
		return 0;
	}
	expect_true("a first read of rng", read_ok());
	tid = target_thread("rng");
	bad_calls(tid);
	bad_ends();
	dma_faults(tid);
	r = target_inject(TACET_INJECT_REG, tid, 2, SP_BIT, TRIES);
	expect_true("rng's sp, bit 40, flipped", r == 2);
	expect_true("a read after rng's sp flipped: answered (by its next instance)", read_ok());
	expect_true("the flipped thread has ended: refused",
		    (r = target_inject(TACET_INJECT_REG, tid, 2, 1, TRIES)) == -TACET_ENOENT ||
			    r == -TACET_EDEAD);
	old = tid;
	tid = next_instance(old);
	r = target_inject(TACET_INJECT_HANG, tid, 0, 0, TRIES);
	expect_true("an endless loop at rng's pc", r > 0);
	expect_true("a read after rng's hang: answered (by its next instance)", read_ok());
	printf("injectbad: %u checks, %u failed\n", checks, failed);
	tacet_poweroff(failed != 0);
	return 0;
}
