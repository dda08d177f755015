/* goldfish_rtc.h: the goldfish RTC's registers (QEMU's virt: google,goldfish-rtc), the one map
 * of them for its driver (servers/rtc) and the test servers that drive it themselves, and how
 * the device is made quiet. Including this header declares that description in the server's
 * image (TACET_QUIESCE, <tacet/quiesce.h>): init applies it when the server ends, and the driver
 * at its start (tacet_device_quiesce). */
#ifndef TACET_GOLDFISH_RTC_H
#define TACET_GOLDFISH_RTC_H

#include <tacet.h>
#include <tacet/quiesce.h>

#define GOLDFISH_RTC_TIME_LOW        0x00 /* ns since the epoch; reading it latches TIME_HIGH */
#define GOLDFISH_RTC_TIME_HIGH       0x04
#define GOLDFISH_RTC_ALARM_LOW       0x08 /* writing it arms the alarm: ALARM_HIGH first */
#define GOLDFISH_RTC_ALARM_HIGH      0x0c
#define GOLDFISH_RTC_IRQ_ENABLED     0x10
#define GOLDFISH_RTC_CLEAR_ALARM     0x14
#define GOLDFISH_RTC_ALARM_STATUS    0x18 /* 1: an alarm is armed */
#define GOLDFISH_RTC_CLEAR_INTERRUPT 0x1c

/* Quiet: its interrupt disabled, its alarm cleared, a raised interrupt lowered. It does no DMA:
 * it is quieted so that the next instance, or nobody, gets no interrupt the dead one asked for. */
TACET_QUIESCE(goldfish_rtc_quiesce, "goldfish-rtc",
	      TACET_QUIESCE_W32(GOLDFISH_RTC_IRQ_ENABLED, 0),
	      TACET_QUIESCE_W32(GOLDFISH_RTC_CLEAR_ALARM, 1),
	      TACET_QUIESCE_W32(GOLDFISH_RTC_CLEAR_INTERRUPT, 1));

static inline uint64_t goldfish_rtc_now(const struct tacet_device *rtc)
{
	uint64_t low = mmio_read32(rtc->regs + GOLDFISH_RTC_TIME_LOW); /* latches TIME_HIGH */

	return (uint64_t)mmio_read32(rtc->regs + GOLDFISH_RTC_TIME_HIGH) << 32 | low;
}

/* The alarm ns from now on the RTC's own clock, its interrupt enabled. */
static inline void goldfish_rtc_alarm_in(const struct tacet_device *rtc, uint64_t ns)
{
	uint64_t at = goldfish_rtc_now(rtc) + ns;

	mmio_write32(rtc->regs + GOLDFISH_RTC_IRQ_ENABLED, 1);
	mmio_write32(rtc->regs + GOLDFISH_RTC_ALARM_HIGH, (uint32_t)(at >> 32));
	mmio_write32(rtc->regs + GOLDFISH_RTC_ALARM_LOW, (uint32_t)at); /* arms it */
}

#endif
