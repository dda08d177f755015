/* rtcalarm: a client of the "rtc" service (init.run=rtc:goldfish-rtc,rtcalarm): the time of day,
 * an alarm 50 ms ahead (fires once, not before its time), three alarms set out of order (each
 * once, each at its time), three due at once (seen in the order of their times), an alarm
 * already past (at once), and the protocol's errors. Times are
 * the RTC's own (tacet_rtc_time), so "not before its time" is the device's clock's word. At the
 * end it powers the machine off with its status (init.run=^rtcalarm; without ^ init refuses,
 * and it returns its status). */
#include <stdio.h>
#include <tacet.h>
#include <tacet/rtc.h>
#include <tacet/rtc_proto.h>

#define MS        1000000ull
#define GUARD_BIT (1ul << 40) /* the test's own timer on the same notification */

static int failures;
static long ntfn;

static void check(int ok, const char *what)
{
	printf("rtcalarm: %s: %s\n", what, ok ? "PASS" : "FAIL");
	failures += !ok;
}

static uint64_t rtc_now(void)
{
	uint64_t ns = 0;

	tacet_rtc_time(&ns);
	return ns;
}

/* Collect bits for `ms` of guest time: how often each of `bits` came, and the RTC's time when
 * each came first (first[i] for bit i of the 64). */
static void collect(unsigned long ms, unsigned long bits, unsigned int count[64], uint64_t first[64])
{
	tacet_timer_set((unsigned long)ntfn, GUARD_BIT, tacet_time() + tacet_ns_to_ticks(ms * MS));
	for (;;) {
		long got = tacet_wait((unsigned long)ntfn);
		uint64_t t = rtc_now();

		if (got < 0)
			return;
		for (int i = 0; i < 64; i++) {
			if (!((unsigned long)got & bits & (1ul << i)))
				continue;
			if (!count[i]++)
				first[i] = t;
		}
		if (got & GUARD_BIT)
			return;
	}
}

static void one_alarm(void)
{
	unsigned int count[64] = { 0 };
	uint64_t first[64] = { 0 }, at = rtc_now() + 50 * MS;

	check(tacet_rtc_alarm(at, (unsigned long)ntfn, 1) == 0, "alarm 50 ms ahead set");
	collect(300, 1, count, first);
	printf("rtcalarm: it fired %u time(s), %lld us after its time\n", count[0],
	       (long long)(first[0] - at) / 1000);
	check(count[0] == 1, "the alarm fired once");
	check(count[0] && first[0] >= at, "not before its time");
}

static void three_alarms(void)
{
	unsigned int count[64] = { 0 };
	uint64_t first[64] = { 0 }, t = rtc_now(), at[3] = { t + 60 * MS, t + 20 * MS, t + 40 * MS };
	int ok = 1;

	for (int i = 0; i < 3; i++)
		ok &= tacet_rtc_alarm(at[i], (unsigned long)ntfn, 1ul << (4 + i)) == 0;
	check(ok, "three alarms set out of order");
	collect(300, 7ul << 4, count, first);
	for (int i = 0; i < 3; i++)
		ok &= count[4 + i] == 1 && first[4 + i] >= at[i];
	check(ok, "each fired once, at or after its time");
	check(first[5] <= first[6] && first[6] <= first[4], "in the order of their times");
}

/* Three alarms due at once (1 ns apart, set latest first, so the server's table holds them out
 * of order): the device's one alarm finds all three due, and each must still be seen in the
 * order of its time, whichever wake-up shows it. */
static void due_together(void)
{
	unsigned int count[64] = { 0 };
	uint64_t first[64] = { 0 }, t = rtc_now() + 20 * MS;
	int ok = 1;

	for (int i = 0; i < 3; i++) /* bit 9 at t + 2, bit 8 at t + 1, bit 7 at t */
		ok &= tacet_rtc_alarm(t + 2 - (uint64_t)i, (unsigned long)ntfn, 1ul << (9 - i)) == 0;
	collect(300, 7ul << 7, count, first);
	ok &= count[7] == 1 && count[8] == 1 && count[9] == 1;
	check(ok && first[7] <= first[8] && first[8] <= first[9],
	      "three alarms due at once, each seen in the order of its time");
}

static void errors(void)
{
	unsigned int count[64] = { 0 };
	uint64_t first[64] = { 0 };
	struct tacet_msg msg = { .tag = TACET_TAG(RTC_ALARM, 2), .w = { 0, 1 } };
	long ep = tacet_slot_alloc(), err, n = 0;

	check(tacet_rtc_alarm(rtc_now() - 1000 * MS, (unsigned long)ntfn, 2) == 0, "alarm in the past");
	collect(100, 2, count, first);
	check(count[1] == 1, "fired at once, once");
	check(tacet_rtc_alarm(rtc_now(), (unsigned long)ntfn, 0) == -TACET_EINVAL, "no bits -> EINVAL");
	tacet_lookup("rtc", (unsigned long)ep, 0);
	err = tacet_call((unsigned long)ep, &msg);
	check(!err && (long)msg.w[0] == -TACET_EINVAL, "RTC_ALARM without a notification -> EINVAL");
	msg = (struct tacet_msg){ .tag = TACET_TAG(0x7777, 0) };
	err = tacet_call((unsigned long)ep, &msg);
	check(!err && (long)msg.w[0] == -TACET_EINVAL, "an unknown label -> EINVAL");
	while (n < 2 * RTC_ALARMS_MAX &&
	       !tacet_rtc_alarm(rtc_now() + 3600000 * MS, (unsigned long)ntfn, 8))
		n++;
	printf("rtcalarm: %ld alarms an hour ahead, then the table is full\n", n);
	check(n == RTC_ALARMS_MAX &&
		      tacet_rtc_alarm(rtc_now(), (unsigned long)ntfn, 8) == -TACET_EBUSY,
	      "more than RTC_ALARMS_MAX pending -> EBUSY");
}

int main(void)
{
	uint64_t t;

	ntfn = tacet_slot_alloc();
	if (ntfn < 0 || tacet_ntfn_new((unsigned long)ntfn)) {
		printf("rtcalarm: FAIL: no notification\n");
		return 1;
	}
	check(tacet_rtc_time(&t) == 0 && t > 1577836800ull * 1000 * MS, "the time of day, past 2020");
	one_alarm();
	three_alarms();
	due_together();
	errors();
	printf("rtcalarm: %s\n", failures ? "FAIL" : "all checks passed");
	tacet_poweroff(failures != 0);
	return failures != 0;
}
