/* blk.c (bench_blk): 4 KiB reads from the block service ("blk", servers/blk) at queue depth 1
 * and 16, timed by the wall clock (tacet_time_ns) for tests/bench/bench.py, which boots it
 * without -icount: the figure is requests per second of real time, most of it QEMU's disk
 * backend. Reads go to random 4 KiB-aligned places on the disk; at depth 16 a new request is
 * submitted as soon as one completes. Prints one BLKBENCH line per depth, then asks init to
 * power off. One thread; no locking. */
#include <stdio.h>
#include <tacet.h>
#include <tacet/blk.h>

#define WARMUP   200
#define REQUESTS 4000

static struct tacet_blk b;
static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t place(void) /* a random 4 KiB-aligned first sector */
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng % (b.capacity / 8) * 8;
}

/* n reads with up to depth in flight; 0 or the first error. */
static long reads(unsigned long n, unsigned int depth)
{
	unsigned long submitted = 0, done = 0;
	long id, result;

	while (done < n) {
		while (submitted < n && submitted - done < depth) {
			/* into the page of the id lib's client will pick: its lowest free */
			id = tacet_blk_submit(&b, BLK_READ, place(), TACET_PAGE_SIZE / BLK_SECTOR,
					      (unsigned long)__builtin_ctz(~b.busy) *
						  TACET_PAGE_SIZE);
			if (id < 0)
				return id;
			submitted++;
		}
		id = tacet_blk_wait_any(&b, &result);
		if (id < 0 || result)
			return id < 0 ? id : result;
		done++;
	}
	return 0;
}

static int run(unsigned int depth)
{
	uint64_t t0, ns;
	long err = reads(WARMUP, depth);

	t0 = tacet_time_ns();
	if (!err)
		err = reads(REQUESTS, depth);
	ns = tacet_time_ns() - t0;
	if (err) {
		printf("bench_blk: depth %u: %s\n", depth, tacet_strerror(err));
		return 1;
	}
	printf("BLKBENCH blk_read_4k_qd%u iops=%llu requests=%u ns=%llu\n", depth,
	       (unsigned long long)(REQUESTS * 1000000000ull / (ns ? ns : 1)), REQUESTS,
	       (unsigned long long)ns);
	return 0;
}

int main(void)
{
	long err = tacet_blk_open(&b, 16 * TACET_PAGE_SIZE, 5000);
	int failed = err != 0;

	if (err)
		printf("bench_blk: cannot open the block service: %s\n", tacet_strerror(err));
	else
		failed = run(1) | run(16);
	tacet_poweroff(failed);
	return failed;
}
