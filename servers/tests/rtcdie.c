/* rtcdie: a driver that dies with its device's interrupt armed (nothing may be left to quiet a
 * dead driver's device but init). It opens the goldfish RTC, says what the device holds (its interrupt
 * enabled, its alarm running), arms the alarm 10 s ahead with its interrupt enabled, and
 * faults. init, at its end, clears the alarm and disables the interrupt (the RTC's quiesce
 * description, which <tacet/goldfish_rtc.h> puts in this image); the restarted instance (`*1`) must find both off. No IPC protocol. */
#include <stdio.h>
#include <tacet.h>
#include <tacet/goldfish_rtc.h>

int main(void)
{
	static struct tacet_device rtc;
	unsigned long addr = 8;
	long err = tacet_device_open(&rtc, "goldfish-rtc", 0, TACET_DEVICE_NO_IRQ);

	if (err) {
		printf("rtcdie: FAIL: open: %s\n", tacet_strerror(err));
		return 1;
	}
	printf("rtcdie: instance %lu: interrupt enabled %u, alarm running %u at start\n",
	       tacet_instance(), mmio_read32(rtc.regs + GOLDFISH_RTC_IRQ_ENABLED),
	       mmio_read32(rtc.regs + GOLDFISH_RTC_ALARM_STATUS));
	if (tacet_instance())
		return 0; /* the second one only looks */
	goldfish_rtc_alarm_in(&rtc, 10ull * 1000 * 1000 * 1000);
	printf("rtcdie: alarm armed 10 s ahead, interrupt enabled; faulting\n");
	__asm__("" : "+r"(addr)); /* hidden from gcc, which would make a trap of its own */
	*(volatile unsigned long *)addr = 1;
	return 1;
}
