/* blkrand: a client of the block service that keeps many requests in flight
 * (tests/qemu/cases_virtio.py), on a disk made as the Makefile makes them (byte i of sector n
 * is (13 n + i) % 251). It works in half of the disk, the lower half on an odd hart and the
 * upper on an even one, so that two instances on harts 1 and 2 share the device but not their
 * sectors. It keeps a checksum of every sector of its half (FNV-1a over the 512 bytes), starting
 * from the disk as made, and:
 *   1. submits 16 reads without waiting (its every request id), checks a 17th is refused,
 *      collects all 16 and verifies them;
 *   2. makes 1,000 random requests (reads and writes of 1 to 16 sectors, random data), up to
 *      16 in flight and never two on the same sector at once; a write's sectors take their new
 *      checksums when it completes, and every sector a read brings is checked;
 *   3. reads its whole half back and checks every sector;
 *   4. asks the service's counters: it handled as many interrupts as the kernel counted on the
 *      line, at least one and no more than requests completed, and the device held two or more
 *      requests at once at some point (QEMU completes a request in tens of microseconds, about
 *      the time a submission takes, so the device side rarely holds more than a few).
 * It names itself 1 (lower half) or 2 (upper half). One thread; no locking. */
#include <stdio.h>
#include <string.h>
#include <tacet.h>
#include <tacet/blk.h>

#define MAX_SECTORS 16                 /* a request's most */
#define SLOT_BYTES  (MAX_SECTORS * BLK_SECTOR) /* each id's part of the buffer */
#define REQUESTS    1000
#define HALF_MAX    4096

struct req {
	uint64_t sector; /* in the half */
	unsigned long count;
	int write;
	unsigned int part; /* which SLOT_BYTES of the buffer holds its data */
	uint32_t sums[MAX_SECTORS]; /* a write's new checksums */
};

static struct tacet_blk b;
static struct req reqs[BLK_IDS];
static uint32_t sums[HALF_MAX];
static uint8_t busy[HALF_MAX];
static uint32_t parts_used;
static uint64_t base, half, rng;
static unsigned long submitted, completed, reads, writes, sectors, bad, in_flight, most;

static uint64_t next(void) /* xorshift64 */
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static uint32_t fnv(const uint8_t *p)
{
	uint32_t h = 2166136261u;

	for (int i = 0; i < BLK_SECTOR; i++)
		h = (h ^ p[i]) * 16777619u;
	return h;
}

static uint8_t *data(unsigned int part)
{
	return (uint8_t *)b.buf.va + part * SLOT_BYTES;
}

/* Queue a request on [sector, sector + count) of the half, its data in a free part of the
 * buffer (random bytes for a write, their checksums kept for its completion). Returns the id
 * or the error. */
static long queue(int write, uint64_t sector, unsigned long count)
{
	unsigned int part = 0;
	struct req r = { .sector = sector, .count = count, .write = write };
	long id;

	while (part < BLK_IDS && (parts_used & (1u << part)))
		part++;
	if (part == BLK_IDS)
		return -TACET_EBUSY;
	r.part = part;
	for (unsigned long n = 0; write && n < count; n++) {
		for (int i = 0; i < BLK_SECTOR; i += 8) {
			uint64_t v = next();

			memcpy(data(part) + n * BLK_SECTOR + i, &v, 8);
		}
		r.sums[n] = fnv(data(part) + n * BLK_SECTOR);
	}
	id = tacet_blk_submit(&b, write ? BLK_WRITE : BLK_READ, base + sector, count,
			      part * SLOT_BYTES);
	if (id < 0)
		return id;
	reqs[id] = r;
	parts_used |= 1u << part;
	memset(busy + sector, 1, count);
	submitted++, sectors += count;
	write ? writes++ : reads++;
	if (++in_flight > most)
		most = in_flight;
	return id;
}

/* Collect one completion and check it: a write's sectors take their new checksums; a read's
 * must match. Returns 0, or -1 if the wait failed. */
static int complete(void)
{
	long result, id = tacet_blk_wait_any(&b, &result);
	struct req *r;

	if (id < 0) {
		printf("blkrand: wait: %s\n", tacet_strerror(id));
		return -1;
	}
	r = &reqs[id];
	bad += result != 0;
	for (unsigned long n = 0; n < r->count; n++) {
		if (r->write)
			sums[r->sector + n] = r->sums[n];
		else
			bad += fnv(data(r->part) + n * BLK_SECTOR) != sums[r->sector + n];
	}
	memset(busy + r->sector, 0, r->count);
	parts_used &= ~(1u << r->part);
	completed++, in_flight--;
	return 0;
}

static int free_range(uint64_t sector, unsigned long count)
{
	for (unsigned long n = 0; n < count; n++)
		if (busy[sector + n])
			return 0;
	return 1;
}

static int check(int ok, const char *what)
{
	printf("blkrand %lu: %s: %s\n", base ? 2ul : 1ul, what, ok ? "PASS" : "FAIL");
	return !ok;
}

/* 1: every id in flight at once; one more refused. */
static int depth(void)
{
	unsigned long before = completed, queued = 0;
	long extra;

	for (int i = 0; i < BLK_IDS; i++)
		queued += queue(0, (uint64_t)i * MAX_SECTORS, MAX_SECTORS) >= 0;
	extra = tacet_blk_submit(&b, BLK_READ, base, 1, 0);
	while (in_flight)
		if (complete())
			return 1;
	printf("blkrand %lu: %lu reads submitted at once, the next refused (%s), %lu completed\n",
	       base ? 2ul : 1ul, queued, tacet_strerror(extra), completed - before);
	return check(queued == BLK_IDS && extra == -TACET_EBUSY && completed - before == BLK_IDS &&
			     !bad, "16 requests in flight, all completed and verified");
}

/* 2: REQUESTS random ones, up to 16 in flight. */
static int random_requests(void)
{
	unsigned long first = submitted;

	reads = writes = sectors = most = 0;

	while (submitted - first < REQUESTS) {
		unsigned long count = 1 + next() % MAX_SECTORS;
		uint64_t sector = next() % (half - count + 1);
		long id = -TACET_EBUSY;

		if (free_range(sector, count))
			id = queue(next() & 1, sector, count);
		if (id == -TACET_EBUSY && in_flight && complete())
			return 1;
		if (id < 0 && id != -TACET_EBUSY) {
			printf("blkrand: submit: %s\n", tacet_strerror(id));
			return 1;
		}
	}
	while (in_flight)
		if (complete())
			return 1;
	printf("blkrand %lu: %lu random requests (%lu reads, %lu writes, %lu sectors), %lu "
	       "completed, at most %lu in flight, %lu wrong\n", base ? 2ul : 1ul,
	       submitted - first, reads, writes, sectors, completed - first, most, bad);
	return check(submitted - first == REQUESTS && completed == submitted && !bad,
		     "1000 random requests, every read verified");
}

/* 3: the whole half read back. */
static int sweep(void)
{
	for (uint64_t s = 0; s < half; s += MAX_SECTORS) {
		while (queue(0, s, MAX_SECTORS) == -TACET_EBUSY)
			if (complete())
				return 1;
	}
	while (in_flight)
		if (complete())
			return 1;
	return check(!bad && completed == submitted, "the whole half reads back as written");
}

/* 4: the service's counters, once what it was asked is done. */
static int counters(void)
{
	struct tacet_msg msg = { .tag = TACET_TAG(BLK_STATS, 0) };
	long err;

	tacet_sleep_ns(50000000);
	err = tacet_call(b.ep, &msg);
	printf("blkrand %lu: the service: %lu requests completed, %lu interrupts handled, %lu on "
	       "the line, at most %lu in flight\n", base ? 2ul : 1ul, msg.w[0], msg.w[1], msg.w[2],
	       msg.w[3]);
	return check(!err && msg.w[0] >= completed && msg.w[1] == msg.w[2] && msg.w[1] > 0 &&
			     msg.w[1] <= msg.w[0] && msg.w[3] >= 2,
		     "interrupts handled = counted on the line, <= completions; several at the "
		     "device at once");
}

int main(void)
{
	struct tacet_self self;
	long err = tacet_blk_open(&b, BLK_IDS * SLOT_BYTES, 5000);
	int failed;

	tacet_self(&self);
	if (err || b.capacity < 2 * 2 * MAX_SECTORS * BLK_IDS || b.capacity / 2 > HALF_MAX) {
		printf("blkrand: FAIL: %s, %llu sectors\n", tacet_strerror(err),
		       (unsigned long long)b.capacity);
		return 1;
	}
	half = b.capacity / 2;
	base = self.hart % 2 ? 0 : half;
	rng = 0x9e3779b97f4a7c15ull * (self.hart + 1);
	for (uint64_t n = 0; n < half; n++) {
		uint8_t sector[BLK_SECTOR];

		for (int i = 0; i < BLK_SECTOR; i++)
			sector[i] = (uint8_t)((13 * (base + n) + i) % 251);
		sums[n] = fnv(sector);
	}
	failed = depth();
	failed |= random_requests();
	failed |= sweep();
	failed |= counters();
	printf("blkrand %lu: %s\n", base ? 2ul : 1ul, failed ? "FAIL" : "all checks passed");
	return failed;
}
