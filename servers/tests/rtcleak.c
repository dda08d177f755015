/* rtcleak: a client of the "rtc" service that dies holding alarms (init.run=rtc:goldfish-rtc,
 * rtcleak*1). Instance 0 fills the alarm table with alarms an hour ahead and faults; instance 1
 * (restarted by init) must find the whole table free again: rtc ended instance 0's session
 * when its process ended, and its alarms with it. No IPC protocol of its own. */
#include <stdio.h>
#include <tacet.h>
#include <tacet/rtc.h>
#include <tacet/rtc_proto.h>

#define HOUR_NS (3600ull * 1000 * 1000 * 1000)

/* Alarms an hour ahead until the table is full: how many were set. */
static int fill(unsigned long ntfn)
{
	uint64_t t = 0;
	int n = 0;

	if (tacet_rtc_time(&t))
		return -1;
	while (n < 2 * RTC_ALARMS_MAX && tacet_rtc_alarm(t + HOUR_NS, ntfn, 1) == 0)
		n++;
	return n;
}

int main(void)
{
	long ntfn = tacet_slot_alloc();
	unsigned long addr = 8;
	int n;

	if (ntfn < 0 || tacet_ntfn_new((unsigned long)ntfn)) {
		printf("rtcleak: FAIL: no notification\n");
		return 1;
	}
	n = fill((unsigned long)ntfn);
	if (!tacet_instance()) {
		printf("rtcleak: instance 0: %d alarms an hour ahead, the table full; faulting\n", n);
		__asm__("" : "+r"(addr)); /* hidden from gcc, which would make a trap of its own */
		*(volatile unsigned long *)addr = 1;
		return 1;
	}
	printf("rtcleak: instance 1: %d alarms set after instance 0's end: %s\n", n,
	       n == RTC_ALARMS_MAX ? "PASS" : "FAIL");
	return n != RTC_ALARMS_MAX;
}
