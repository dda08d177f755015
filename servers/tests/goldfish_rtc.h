/* goldfish_rtc.h: the goldfish RTC's registers, and the two things the test drivers that drive
 * it themselves do with them (kittest, lookupstorm): read the time of day, arm the alarm. */
#ifndef GOLDFISH_RTC_H
#define GOLDFISH_RTC_H

#include <tacet.h>

#define RTC_TIME_LOW    0x00 /* ns since the epoch; reading it latches TIME_HIGH */
#define RTC_TIME_HIGH   0x04
#define RTC_ALARM_LOW   0x08 /* writing it arms the alarm: ALARM_HIGH first */
#define RTC_ALARM_HIGH  0x0c
#define RTC_IRQ_ENABLED 0x10
#define RTC_CLEAR_INT   0x1c

static inline uint64_t rtc_now(const struct tacet_device *rtc)
{
	uint64_t low = mmio_read32(rtc->regs + RTC_TIME_LOW); /* latches TIME_HIGH */

	return (uint64_t)mmio_read32(rtc->regs + RTC_TIME_HIGH) << 32 | low;
}

/* The alarm ns from now on the RTC's own clock, its interrupt enabled. */
static inline void rtc_alarm_in(const struct tacet_device *rtc, uint64_t ns)
{
	uint64_t at = rtc_now(rtc) + ns;

	mmio_write32(rtc->regs + RTC_IRQ_ENABLED, 1);
	mmio_write32(rtc->regs + RTC_ALARM_HIGH, (uint32_t)(at >> 32));
	mmio_write32(rtc->regs + RTC_ALARM_LOW, (uint32_t)at); /* arms it */
}

#endif
