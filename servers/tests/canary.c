/* canary: the pages a dead driver's device could still write must not go to anyone (the
 * DMA quarantine; tests/qemu/cases_isolation.py, dma-kill-*). Built twice, with
 * canary_blk.c and canary_rng.c, which name the service watched and the call made on it.
 *  1. It looks the service up (its first instance).
 *  2. It calls the service until a call says TACET_EDEAD, reading the machine's free memory
 *     before each call: the driver has died (the rng case's
 *     calls are what makes it wait for its device, and die; the blk case's are answered until
 *     the driver dies of its client's 16th request). Nothing is timed: the end is the event.
 *  3. At once it takes every free page it can, one page a frame, until the kernel refuses
 *     (its budget or the pool), maps each and fills it with a pattern of its own: if a page
 *     the device could still write had gone back to the pool, it would now be the canary's,
 *     and the device's write would land in it.
 *  4. It waits for the restarted driver: the service's name reached again, on instance 1 (init
 *     publishes it only after it has reset the device and released its quarantine); the rng
 *     case reads 32 bytes from it.
 *  5. It checks every page's pattern and says how many changed: 0, or the quarantine let a
 *     page go too soon. Then it gives every page back and compares the machine's free memory
 *     with step 1's (the driver's two instances hold the same; the canary's own page tables
 *     stay until it ends, counted apart): nothing lost to the quarantine. Only when it is the
 *     service's sole client: another one (blkinflight, reconnecting and submitting again)
 *     allocates at the same time, and the figures then say nothing (they are printed).
 * Then it powers the machine off (status 0 if everything held). */
#include <stdio.h>
#include <tacet.h>
#include <tacet/init_proto.h>

#define SLOT_SVC   TACET_CHILD_FIRST_FREE
#define SLOT_FRAME (TACET_CHILD_FIRST_FREE + 1)
#define MAX_PAGES  (64ul * 1024) /* the region it maps its pages in (256 MiB) */
#define WORDS      (TACET_PAGE_SIZE / sizeof(uint64_t))

extern const char canary_service[];
extern const unsigned long canary_label, canary_w0;
extern const int canary_powers_off; /* else another server of the case does */
/* the service's only client: nothing else allocates between its two looks at free memory */
extern const int canary_sole_client;

static uint64_t pattern(unsigned long page, unsigned long word)
{
	return 0xca4a41e5c0ffee00ull ^ (page << 20) ^ word;
}

/* Free pages and the object caches' pages: the leak check's sum. */
static unsigned long mem_now(void)
{
	struct tacet_mem_info m = { 0 };

	tacet_info(TACET_INFO_MEM, 0, &m, sizeof(m));
	return m.free_pages + m.kernel_object_pages;
}

static unsigned long own_pages(void)
{
	unsigned long used = 0, limit = 0;

	tacet_process_memory(TACET_CHILD_SELF, &used, &limit);
	return used / TACET_PAGE_SIZE;
}

/* Step 3: pages at va onwards, each its own frame, mapped and filled; how many. */
static unsigned long take_all(unsigned long va)
{
	unsigned long n = 0;

	for (; n < MAX_PAGES; n++) {
		volatile uint64_t *p = (volatile uint64_t *)(va + n * TACET_PAGE_SIZE);

		if (tacet_frame_new(SLOT_FRAME, 1))
			break;
		if (tacet_map(TACET_CHILD_SELF, SLOT_FRAME, (unsigned long)p,
			      TACET_RIGHT_READ | TACET_RIGHT_WRITE)) {
			tacet_cap_delete(SLOT_FRAME);
			break;
		}
		tacet_cap_delete(SLOT_FRAME); /* the mapping keeps the frame */
		for (unsigned long w = 0; w < WORDS; w++)
			p[w] = pattern(n, w);
	}
	return n;
}

/* Step 5: the pages whose pattern changed. */
static unsigned long changed(unsigned long va, unsigned long n)
{
	unsigned long bad = 0;

	for (unsigned long i = 0; i < n; i++) {
		const volatile uint64_t *p = (const volatile uint64_t *)(va + i * TACET_PAGE_SIZE);
		unsigned long w = 0;

		while (w < WORDS && p[w] == pattern(i, w))
			w++;
		if (w < WORDS && bad++ < 4)
			printf("canary: page %lu changed at byte %lu: %#lx\n", i,
			       w * sizeof(uint64_t), (unsigned long)p[w]);
	}
	return bad;
}

static void power_off(int failed)
{
	tacet_poweroff(failed);
}

/* Step 4: the service again, on a later instance (1 s of tries a lookup, as often as it
 * takes: a lookup right after the death may still reach the dead instance's name). */
static long restarted(unsigned long *instance)
{
	long err;

	do {
		err = tacet_reconnect_instance(canary_service, SLOT_SVC, 1000, instance);
	} while ((!err && *instance == 0) || err == -TACET_ENOENT);
	return err;
}

/* The call canary_blk.c or canary_rng.c names: 0 if the service answered it. */
static long ask(void)
{
	struct tacet_msg msg = { .tag = TACET_TAG(canary_label, 1), .w = { canary_w0 } };
	long err = tacet_call(SLOT_SVC, &msg);

	return err ? err : TACET_TAG_LABEL(msg.tag) ? -TACET_EINVAL : 0;
}

int main(void)
{
	unsigned long instance = 99, calls = 0, before, own, taken, bad, after, va;
	long err = tacet_lookup_instance(canary_service, SLOT_SVC, 10000, &instance);
	int ok;

	if (err || instance) {
		printf("canary: FAIL: \"%s\": %s, instance %lu\n", canary_service, tacet_strerror(err),
		       instance);
		power_off(1);
		return 1;
	}
	va = tacet_va_alloc(MAX_PAGES);
	own = own_pages();
	do { /* the memory as the last call before the death found it */
		before = mem_now();
		calls++;
	} while ((err = ask()) != -TACET_EDEAD);
	taken = take_all(va);
	printf("canary: instance 0 of \"%s\" ended (%s at call %lu); took %lu free pages at once, "
	       "each filled with a pattern\n", canary_service, tacet_strerror(err), calls, taken);
	err = restarted(&instance);
	if (!err)
		err = ask(); /* the restarted driver serves */
	bad = changed(va, taken);
	ok = !err && instance == 1 && !bad && taken;
	printf("canary: \"%s\" back as instance %lu, which answers (%s); %lu pages checked, %lu "
	       "changed: %s\n", canary_service, instance, tacet_strerror(err), taken, bad,
	       ok ? "PASS" : "FAIL");
	for (unsigned long i = 0; i < taken; i += 256)
		tacet_unmap(TACET_CHILD_SELF, va + i * TACET_PAGE_SIZE,
			    taken - i < 256 ? taken - i : 256);
	own = own_pages() - own; /* what stays charged: its page tables */
	after = mem_now();
	printf("canary: free pages %lu before the death, %lu after the restart with the canary's "
	       "pages back and %lu of its page tables: %s\n", before, after, own,
	       !canary_sole_client ? "not compared (other clients)" :
	       after + own == before ? "PASS" : "FAIL");
	ok = ok && (!canary_sole_client || after + own == before);
	if (canary_powers_off)
		power_off(!ok);
	return !ok;
}
