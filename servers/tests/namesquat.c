/* namesquat: a hostile server that tries to take the drivers' names, "rng", "rtc", "blk", "console"
 * and "pci", none of which init.run= grants it (a name must not belong to its first publisher, or a
 * server up before the drivers takes and keeps their names). It publishes an endpoint of its own
 * under all five at once, a thread for each name, so that listed first in init.run= its five calls
 * wait at init before any driver's (init serves requests in order, once every server has started,
 * and the drivers first set up their devices); listed last, they come while the drivers come up.
 * Then it tries every name again every millisecond until rng, rtc, blk and the console have all
 * published theirs (it looks them up), and once more after. Every try must be refused with EPERM:
 * none of the names is its own. Prints `namesquat: N tries, 0 took a name, each refused with EPERM:
 * PASS` (or FAIL and what it got), then answers every call on its endpoint as an impostor would (16
 * bytes of 0x41, a time of day of 2000-01-01): had it taken the names, the shell's `random` would
 * print 4141...41 and `date` 2000-01-01, or, with "console", there would be no shell at all. The
 * tests (tests/qemu/cases_isolation.py) check that the real drivers answer.
 */
#include <stdio.h>
#include <tacet.h>
#include <tacet/init_proto.h>
#include <tacet/rtc_proto.h>

#define SQUAT_MAX_MS 20000 /* the drivers are up long before */
#define NS_PER_MS 1000000ull
#define Y2000_NS (946684800ull * 1000000000ull) /* 2000-01-01 00:00 UTC */
#define STACK_SIZE 8192

enum { SLOT_EP = TACET_CHILD_FIRST_FREE, SLOT_LOOK, SLOT_DONE };

/* The first NDRIVERS are the names a default boot's drivers publish ("pci": nobody's there). */
static const char *const names[] = { "rng", "rtc", "blk", "console", "pci" };
#define NNAMES (sizeof(names) / sizeof(names[0]))
#define NDRIVERS 4

static long first_round[NNAMES]; /* each thread's answer */
static unsigned char stacks[NNAMES][STACK_SIZE] __attribute__((aligned(16)));
static unsigned int tries, took, other; /* other: refused, but not with EPERM */
static long first_other;

/* The answer to one try, counted. */
static void count(unsigned int i, long err)
{
	tries++;
	if (!err) {
		took++;
		printf("namesquat: took \"%s\": FAIL\n", names[i]);
	} else if (err != -TACET_EPERM && !other++) {
		first_other = err;
	}
}

/* A thread of the first round: one try at names[i], then the bit i on SLOT_DONE. */
static void try_one(void *arg)
{
	unsigned long i = (unsigned long)arg;

	first_round[i] = tacet_publish(names[i], SLOT_EP, TACET_RIGHT_WRITE);
	tacet_signal(SLOT_DONE, 1ul << i);
}

/* The first round: every name at once, a thread each, all waiting at init together. */
static long squat_at_once(void)
{
	struct tacet_self self;
	unsigned long done = 0;

	tacet_self(&self);
	for (unsigned long i = 0; i < NNAMES; i++) {
		long err = tacet_thread_start(try_one, (void *)i, (unsigned long)stacks[i + 1],
					      TACET_SCHED(self.prio, self.hart));

		if (err < 0)
			return err;
	}
	while (done != (1ul << NNAMES) - 1) {
		long bits = tacet_wait(SLOT_DONE);

		if (bits < 0)
			return bits;
		done |= (unsigned long)bits;
	}
	for (unsigned int i = 0; i < NNAMES; i++)
		count(i, first_round[i]);
	return 0;
}

/* One try at every name, one after the other. */
static void squat(void)
{
	for (unsigned int i = 0; i < NNAMES; i++)
		count(i, tacet_publish(names[i], SLOT_EP, TACET_RIGHT_WRITE));
}

/* Have rng, rtc, blk and the console all published? */
static int drivers_up(void)
{
	for (unsigned int i = 0; i < NDRIVERS; i++) {
		long err = tacet_lookup(names[i], SLOT_LOOK, 0);

		tacet_cap_delete(SLOT_LOOK);
		if (err)
			return 0;
	}
	return 1;
}

/* The impostor: every call answered with 0x41 bytes (what RNG_READ's client reads) and the
 * first of 2000 (what RTC_TIME's reads, in w0, is a time in ns). */
static void impostor(void)
{
	struct tacet_msg msg = { 0 }, reply = { .tag = TACET_TAG(0, 4) };
	unsigned long badge;
	long err = tacet_recv(SLOT_EP, 0, &msg, &badge);

	for (unsigned int i = 0; i < 4; i++)
		reply.w[i] = 0x4141414141414141ul;
	while (!err) {
		int rtc_time = TACET_TAG_LABEL(msg.tag) == RTC_TIME && !TACET_TAG_WORDS(msg.tag);

		reply.w[0] = rtc_time ? Y2000_NS : 0x4141414141414141ul;
		err = tacet_reply_recv(SLOT_EP, &reply, 0, &msg, &badge);
	}
}

int main(void)
{
	unsigned long end = tacet_time() + tacet_ns_to_ticks(SQUAT_MAX_MS * NS_PER_MS);
	long err = tacet_endpoint_new(SLOT_EP);
	int up = 0;

	if (!err)
		err = tacet_ntfn_new(SLOT_DONE);
	if (!err)
		err = squat_at_once();
	if (err) {
		printf("namesquat: cannot start: %s: FAIL\n", tacet_strerror(err));
		return 1;
	}
	while (!up && tacet_time() < end) {
		up = drivers_up();
		squat();
		if (!up)
			tacet_sleep_ns(NS_PER_MS);
	}
	if (!up)
		printf("namesquat: rng, rtc, blk and console not all published in %u ms: FAIL\n",
		       SQUAT_MAX_MS);
	else if (took || other)
		printf("namesquat: %u tries, %u took a name, %u refused otherwise (first: %s): FAIL\n",
		       tries, took, other, other ? tacet_strerror(first_other) : "none");
	else
		printf("namesquat: %u tries, 0 took a name, each refused with EPERM: PASS\n", tries);
	impostor();
	return 1;
}
