/* rtc: the goldfish RTC driver (init.run=rtc:goldfish-rtc; docs/drivers.md builds it). Publishes
 * "rtc" (<tacet/rtc_proto.h>): the time of day, and alarms signalled on a client's notification. */
#include <stdio.h>
#include <tacet.h>
#include <tacet/goldfish_rtc.h> /* its registers, and how it is quieted */
#include <tacet/rtc_proto.h>

static struct tacet_device rtc;
static struct alarm {
	uint64_t at;
	unsigned long bits, slot; /* slot 0: a free entry */
} alarms[RTC_ALARMS_MAX];

static uint64_t now(void)
{
	uint64_t low = mmio_read32(rtc.regs + GOLDFISH_RTC_TIME_LOW);

	return (uint64_t)mmio_read32(rtc.regs + GOLDFISH_RTC_TIME_HIGH) << 32 | low;
}

/* The device's alarm at the earliest of ours (one already past fires at once). With none left
 * the device's alarm has fired already: nothing to do. */
static void program(void)
{
	uint64_t next = UINT64_MAX;

	for (int i = 0; i < RTC_ALARMS_MAX; i++)
		if (alarms[i].slot && alarms[i].at < next)
			next = alarms[i].at;
	if (next == UINT64_MAX)
		return;
	mmio_write32(rtc.regs + GOLDFISH_RTC_ALARM_HIGH, (uint32_t)(next >> 32));
	mmio_write32(rtc.regs + GOLDFISH_RTC_ALARM_LOW, (uint32_t)next);
}

/* The alarm fired (our only event): clear the device's interrupt, signal what is due, ack. */
static void event(struct tacet_device *dev, long ev)
{
	(void)ev;
	mmio_write32(dev->regs + GOLDFISH_RTC_CLEAR_INTERRUPT, 1);
	for (int i = 0; i < RTC_ALARMS_MAX; i++) {
		if (!alarms[i].slot || alarms[i].at > now())
			continue;
		tacet_signal(alarms[i].slot, alarms[i].bits);
		tacet_slot_free(alarms[i].slot);
		alarms[i].slot = 0;
	}
	program();
	tacet_device_ack(dev, 1);
}

static long add_alarm(struct tacet_service *s, const struct tacet_msg *msg)
{
	long slot;

	if (!msg->w[1] || msg->w[1] >> 63) /* bits to signal: none, or bit 63 (reserved) */
		return -TACET_EINVAL;
	for (int i = 0; i < RTC_ALARMS_MAX; i++) {
		if (alarms[i].slot)
			continue;
		if ((slot = tacet_service_take_cap(s, msg)) < 0)
			return slot;
		alarms[i] = (struct alarm){ msg->w[0], msg->w[1], (unsigned long)slot };
		program();
		return 0;
	}
	return -TACET_EBUSY;
}

static void call(struct tacet_service *s, const struct tacet_msg *msg, struct tacet_msg *reply)
{
	unsigned long label = TACET_TAG_LABEL(msg->tag);

	reply->w[0] = label == RTC_TIME	   ? now()
		      : label == RTC_ALARM ? (unsigned long)add_alarm(s, msg)
					   : (unsigned long)-TACET_EINVAL;
}

/* Never prints while serving: the shell calls us (`date`); a call back to it would deadlock. */
int main(void)
{
	struct tacet_service service;
	long err = tacet_device_open(&rtc, "goldfish-rtc", 0, 0);

	if (!err) /* quiet, as init leaves it at an instance's end (one description for both) */
		err = tacet_device_quiesce(&rtc) < 0 ? -TACET_EINVAL : 0;
	if (!err)
		mmio_write32(rtc.regs + GOLDFISH_RTC_IRQ_ENABLED, 1);
	if (!err)
		err = tacet_service_open(&service, "rtc", TACET_RIGHT_WRITE | TACET_RIGHT_GRANT, &rtc);
	if (!err)
		err = tacet_service_run(&service, call, event);
	printf("rtc: %s\n", tacet_strerror(err));
	return 1;
}
