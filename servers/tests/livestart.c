/* livestart: init's liveness check ends a `~` server that spins before it publishes anything
 * (spinstart's first instance), which no question can reach: its start is the question, and
 * its first publish the answer. Started as `^livestart@1` beside `spinstart*3~10` and
 * `rng:virtio-rng*3~20`, both on hart 0 at the drivers' priority (100): rng, whose hart the
 * spinner shares, must not be ended. It looks spinstart up and calls it: the answer must come
 * from its second instance, within BOUND_MS of this server's start; then a read of rng. Prints
 * each check `livestart: ...: PASS` (or FAIL), `livestart: spinstart answered after N ms`, then
 * `livestart: N checks, N failed`, and powers off. No IPC protocol. */
#include <stdio.h>
#include <tacet.h>
#include <tacet/init_proto.h>
#include <tacet/random.h>

#define LOOKUP_TRIES 1000 /* 1 ms apart: far past the spinner's limits */
#define BOUND_MS 400 /* spinstart's start limit (20 x 10 ms), a round, its end and restart */
#define SLOT_SPIN TACET_CHILD_FIRST_FREE

static unsigned int checks, failed;

static void expect_true(const char *what, int ok)
{
	checks++;
	failed += !ok;
	printf("livestart: %s: %s\n", what, ok ? "PASS" : "FAIL");
}

int main(void)
{
	struct tacet_msg msg = { .tag = TACET_TAG(1, 0) };
	uint64_t t0 = tacet_time_ns(), ms;
	unsigned char buf[16];
	long err = tacet_lookup("spinstart", SLOT_SPIN, LOOKUP_TRIES);

	if (err)
		printf("livestart: spinstart's lookup: %s\n", tacet_strerror(err));
	else
		err = tacet_call(SLOT_SPIN, &msg);
	ms = (tacet_time_ns() - t0) / 1000000;
	printf("livestart: spinstart answered after %llu ms\n", (unsigned long long)ms);
	expect_true("spinstart looked up and called", err == 0);
	expect_true("the answer is its second instance's", err == 0 && msg.w[0] == 1);
	expect_true("within the bound", ms < BOUND_MS);
	expect_true("a read of rng, its neighbour", tacet_random(buf, sizeof(buf)) == sizeof(buf));
	printf("livestart: %u checks, %u failed\n", checks, failed);
	tacet_poweroff(failed != 0);
	return 0;
}
