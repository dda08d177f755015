/* rngtest: a client of the entropy service (tests/qemu/cases_virtio.py). Asks tacet_random()
 * for 4096 bytes and checks it got them all and that they look random: 4096 bytes of a uniform
 * source take nearly all 256 values (255.9 expected), each about 16 times; then, after a pause
 * for the device to settle, checks that the driver handled every interrupt of its line and no
 * more interrupts than requests completed. Prints its first bytes so that two instances can be
 * compared. Exits 0 when every check passed. No IPC protocol of its own. */
#include <stdio.h>
#include <string.h>
#include <tacet.h>
#include <tacet/random.h>

#define BYTES 4096
#define MIN_DISTINCT 240 /* of 256 */
#define MAX_SAME 48      /* times one value may appear: 16 expected, 8 standard deviations */
#define SETTLE_TICKS 100000ul /* 10 ms of the 10 MHz timebase */
#define SLOT_TIMER 16

static unsigned char buf[BYTES];

static int check_bytes(unsigned long id)
{
	unsigned int count[256] = { 0 }, distinct = 0, most = 0;
	long got = tacet_random(buf, sizeof(buf));

	if (got != BYTES) {
		printf("rngtest %lu: FAIL: tacet_random gave %ld\n", id, got);
		return 1;
	}
	for (unsigned int i = 0; i < BYTES; i++)
		count[buf[i]]++;
	for (unsigned int v = 0; v < 256; v++) {
		distinct += count[v] != 0;
		most = count[v] > most ? count[v] : most;
	}
	printf("rngtest %lu: %ld bytes, %u distinct values, the commonest %u times, first bytes "
	       "%02x%02x%02x%02x%02x%02x%02x%02x: %s\n", id, got, distinct, most, buf[0], buf[1],
	       buf[2], buf[3], buf[4], buf[5], buf[6], buf[7],
	       distinct >= MIN_DISTINCT && most <= MAX_SAME ? "PASS" : "FAIL");
	return !(distinct >= MIN_DISTINCT && most <= MAX_SAME);
}

/* Sleep on a timer: the device finishes what the driver offered again. */
static void settle(void)
{
	if (tacet_ntfn_new(SLOT_TIMER) == 0 &&
	    tacet_timer_set(SLOT_TIMER, 1, tacet_time() + SETTLE_TICKS) == 0)
		tacet_wait(SLOT_TIMER);
	tacet_cap_delete(SLOT_TIMER);
}

static int check_interrupts(unsigned long id)
{
	struct tacet_rng_stats st;
	long err;
	int ok;

	settle();
	err = tacet_random_stats(&st);
	if (err) {
		printf("rngtest %lu: FAIL: stats: %s\n", id, tacet_strerror(err));
		return 1;
	}
	ok = st.irqs == st.line_count && st.irqs > 0 && st.irqs <= st.completed;
	printf("rngtest %lu: %lu requests completed (%lu in flight), %lu interrupts handled, %lu "
	       "on the line: %s\n", id, st.completed, st.in_flight, st.irqs, st.line_count,
	       ok ? "PASS" : "FAIL");
	return !ok;
}

int main(void)
{
	unsigned long id = tacet_start_arg;
	int failed = check_bytes(id);

	failed |= check_interrupts(id);
	return failed;
}
