/* rtc: the goldfish RTC driver (init.run=rtc:goldfish-rtc; docs/drivers.md builds it). Publishes
 * "rtc" (<tacet/rtc_proto.h>, lib/proto/rtc.proto: the generated dispatch calls rtc_serve_*):
 * the time of day, and alarms signalled on a client's notification, each its session's (lib's
 * session table: a client's end frees its alarms). One thread: the kit's loop. */
#include <stdio.h>
#include <tacet.h>
#include <tacet/goldfish_rtc.h> /* its registers, and how it is quieted */
#include <tacet/init_proto.h>
#include <tacet/rtc_server.h>

static struct tacet_device rtc;
static struct tacet_sessions sessions; /* a session is its alarms (below): no state */
static struct alarm {
	uint64_t at;
	unsigned long bits, slot; /* slot 0: a free entry */
	unsigned long badge;      /* whose session set it */
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

/* The earliest alarm due by `t`, or -1. */
static int earliest_due(uint64_t t)
{
	int first = -1;

	for (int i = 0; i < RTC_ALARMS_MAX; i++)
		if (alarms[i].slot && alarms[i].at <= t &&
		    (first < 0 || alarms[i].at < alarms[first].at))
			first = i;
	return first;
}

/* The alarm fired (our only event): clear the device's interrupt, signal what is due in the
 * order of the alarms' times (several are due at once when this server ran late: a client
 * woken by the first signal must not see a later alarm before an earlier one), ack. */
static void event(struct tacet_device *dev, long ev)
{
	int i;

	(void)ev;
	mmio_write32(dev->regs + GOLDFISH_RTC_CLEAR_INTERRUPT, 1);
	while ((i = earliest_due(now())) >= 0) {
		tacet_signal(alarms[i].slot, alarms[i].bits);
		tacet_slot_free(alarms[i].slot);
		alarms[i].slot = 0;
	}
	program();
	tacet_device_ack(dev, 1);
}

long rtc_serve_time(struct tacet_service *s, uint64_t *ns)
{
	(void)s;
	*ns = now();
	return 0;
}

long rtc_serve_open(struct tacet_service *s, unsigned long process)
{
	return tacet_session_open(&sessions, s->badge, process);
}

long rtc_serve_alarm(struct tacet_service *s, uint64_t at, uint64_t bits, unsigned long ntfn)
{
	long slot;

	(void)ntfn; /* taken below */
	if (!bits || bits >> 63 || !tacet_session_is_open(&sessions, s->badge))
		return -TACET_EINVAL; /* bits: none, or bit 63 (reserved); or no session */
	for (int i = 0; i < RTC_ALARMS_MAX; i++) {
		if (alarms[i].slot)
			continue;
		if ((slot = tacet_service_take_cap(s)) < 0)
			return slot;
		alarms[i] = (struct alarm){ at, bits, (unsigned long)slot, s->badge };
		program();
		return 0;
	}
	return -TACET_EBUSY;
}

/* A session ended (its client closed it or died): its alarms go, unsignalled. */
static void ended(struct tacet_sessions *t, unsigned long badge, void *state)
{
	(void)t, (void)state;
	for (int i = 0; i < RTC_ALARMS_MAX; i++) {
		if (!alarms[i].slot || alarms[i].badge != badge)
			continue;
		tacet_slot_free(alarms[i].slot);
		alarms[i].slot = 0;
	}
	program();
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
		err = tacet_service_open(&service, "rtc", TACET_RIGHT_WRITE | TACET_RIGHT_GRANT |
					 INIT_BADGE_CLIENTS, &rtc);
	if (!err)
		err = tacet_service_sessions(&service, &sessions, NULL, 0, ended);
	if (!err)
		err = tacet_service_run(&service, rtc_dispatch, event);
	printf("rtc: %s\n", tacet_strerror(err));
	return 1;
}
