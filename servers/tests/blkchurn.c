/* blkchurn: clients of the block service that come and go (servers outlive their
 * clients): a client that ends must get back everything the service held for it, or
 * after a dozen clients the service has nothing left for the next one. init.run=
 * `blkchurn*20[blk=0-63]` runs it 21 times, one instance after the other, each a new process
 * under the same badge (an instance ends with status 1, and init restarts it). Each instance:
 *   1. asks the service what it holds for clients (BLK_USAGE, answered after every end
 *      signalled before the call) until no session is left (the one before may have left a
 *      request at the device; its frame stays with the service until the device is done),
 *   2. reads the machine's free pages (and the pages and objects of the kernel's caches),
 *   3. opens the service with lib's client and reads the state sector (the first it is
 *      granted): the run number, and run 1's figures from step 1 and 2;
 *   4. run 1 writes its figures there; every later run compares its own with them: the same
 *      free memory, no session, no capability slot held: everything the instances before had
 *      is back, their frames included;
 *   5. writes its own sector (1 + run) with a pattern and reads back every earlier run's;
 *   6. ends without closing: an odd run with a 32 KiB read (its whole range) still in flight
 *      (the device writes into the frame of a process that is gone), an even one with nothing
 *      in flight.
 * Run 21 only checks, closes and reopens (no EBUSY while a read is in flight), prints the
 * verdict and powers off; a run whose check fails powers off at once, with a failure status. */
#include <stdio.h>
#include <string.h>
#include <tacet.h>
#include <tacet/blk.h>
#include <tacet/init_proto.h>

#define RUNS 21
#define MAGIC 0x6368726e /* "chrn" */
#define BUF_BYTES (64 * 1024)

struct state { /* the state sector */
	uint32_t magic, runs;
	uint64_t mem, objects;  /* run 1's: free + cache pages, kernel objects */
	uint32_t usage_failed;  /* runs that found the service holding something (or not saying) */
};

static struct tacet_blk b;

static uint8_t pattern(unsigned long run, unsigned long i)
{
	return (uint8_t)(run * 41 + i * 3 + 7);
}

static void power_off(int failed)
{
	tacet_poweroff(failed);
}

/* The service's BLK_USAGE into w (-TACET_EINVAL from a service without it), once it holds no
 * session (up to 2 s: the device finishes a read in microseconds). */
static long usage(unsigned long ep, unsigned long w[4])
{
	for (int tries = 0; tries < 2000; tries++) {
		struct tacet_msg msg = { .tag = TACET_TAG(BLK_USAGE, 0) };
		long err = tacet_call(ep, &msg);

		if (!err && (long)msg.w[0] < 0)
			err = (long)msg.w[0];
		if (err)
			return err;
		memcpy(w, msg.w, 4 * sizeof(w[0]));
		if (!w[0] && !w[1])
			return 0;
		tacet_sleep_ns(1000000);
	}
	return 0;
}

int main(void)
{
	long ep = tacet_slot_alloc(), err = ep < 0 ? ep : tacet_lookup("blk", (unsigned long)ep, 5000);
	unsigned long use[4] = { ~0ul, ~0ul, ~0ul, ~0ul };
	struct tacet_mem_info mem = { 0 };
	struct state st;
	unsigned long run, bad = 0;
	uint8_t *buf;
	int ok, held;

	/* lib's sleep makes its notification at the first sleep: make it in every run, before the
	 * memory is read, whether usage() sleeps or not */
	tacet_sleep_ns(1000);
	if (!err)
		err = usage((unsigned long)ep, use);
	if (err)
		printf("blkchurn: the service's usage (BLK_USAGE): %s: FAIL\n", tacet_strerror(err));
	held = err || use[0] || use[1] || use[2];
	tacet_info(TACET_INFO_MEM, 0, &mem, sizeof(mem));
	err = tacet_blk_open(&b, BUF_BYTES, 5000);
	if (!err)
		err = tacet_blk_read(&b, b.first, 1, 0);
	if (err) {
		printf("blkchurn: FAIL: open and read: %s (%s)\n", tacet_strerror(err),
		       "the service may have nothing left for a new client");
		power_off(1);
		return 1;
	}
	buf = b.buf.va;
	memcpy(&st, buf, sizeof(st));
	if (st.magic != MAGIC) /* run 1: the disk as made */
		st = (struct state){ .magic = MAGIC, .mem = mem.free_pages + mem.kernel_object_pages,
				     .objects = mem.kernel_objects };
	run = ++st.runs;
	st.usage_failed += held;
	ok = mem.free_pages + mem.kernel_object_pages == st.mem && mem.kernel_objects == st.objects;
	printf("blkchurn %lu: before opening: free pages %lu + %lu in caches (run 1: %llu), kernel "
	       "objects %lu (run 1: %llu): %s; the service holds %ld sessions, %ld ended, %ld "
	       "slots: %s\n", run, mem.free_pages, mem.kernel_object_pages,
	       (unsigned long long)st.mem, mem.kernel_objects, (unsigned long long)st.objects,
	       ok ? "PASS" : "FAIL", (long)use[0], (long)use[1], (long)use[2],
	       held ? "FAIL" : "PASS");
	memcpy(buf, &st, sizeof(st));
	err = tacet_blk_write(&b, b.first, 1, 0);
	for (unsigned long i = 0; !err && run < RUNS && i < BLK_SECTOR; i++)
		buf[i] = pattern(run, i);
	if (!err && run < RUNS)
		err = tacet_blk_write(&b, b.first + run, 1, 0);
	memset(buf, 0, BUF_BYTES);
	if (!err)
		err = tacet_blk_read(&b, b.first + 1, run < RUNS ? run : RUNS - 1, 0);
	for (unsigned long r = 1; !err && r <= run && r < RUNS; r++)
		for (unsigned long i = 0; i < BLK_SECTOR; i++)
			bad += buf[(r - 1) * BLK_SECTOR + i] != pattern(r, i);
	ok &= !err && !bad;
	printf("blkchurn %lu: wrote its sector, read back %lu sectors of the runs so far: %s, %lu "
	       "wrong: %s\n", run, run < RUNS ? run : RUNS - 1, tacet_strerror(err), bad,
	       !err && !bad ? "PASS" : "FAIL");
	if (!ok) {
		power_off(1);
		return 1;
	}
	if (run == RUNS) {
		/* close with a read in flight, and reopen at once */
		long id = tacet_blk_submit(&b, BLK_READ, b.first, b.sectors, 0);

		tacet_blk_close(&b);
		err = id < 0 ? id : tacet_blk_open(&b, BUF_BYTES, 5000);
		if (!err)
			err = tacet_blk_read(&b, b.first + 1, 1, 0);
		ok = !err && ((uint8_t *)b.buf.va)[5] == pattern(1, 5);
		printf("blkchurn %lu: closed with a read in flight, opened again and read: %s: %s\n",
		       run, tacet_strerror(err), ok ? "PASS" : "FAIL");
		tacet_blk_close(&b);
		ok &= !st.usage_failed;
		printf("blkchurn: %d clients came and went, every one served, everything back: %s\n",
		       RUNS - 1, ok ? "PASS" : "FAIL");
		power_off(!ok);
		return !ok;
	}
	if (run % 2) /* a 32 KiB read the device is still doing when the process is gone */
		tacet_blk_submit(&b, BLK_READ, b.first, b.sectors, 0);
	return 1; /* init restarts it: the next client */
}
