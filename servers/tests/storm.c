/* storm.c: a driver for the goldfish RTC that makes its alarm interrupt stay asserted and never
 * handles it, to test the kernel's detection of unhandled interrupts (storm.h; the storm and
 * storm_rebind servers). The kernel must disable the line, report it on the console, tell the
 * driver (its ack returns TACET_EDISABLED), and keep everything else running; then irq_enable
 * and a proper clear bring it back.
 * No IPC protocol. */
#include <stdio.h>
#include <tacet.h>
#include <tacet/goldfish_rtc.h>
#include <tacet/init_proto.h>
#include "storm.h"

#define RTC_VA          0x0000002000000000ul
#define SLOT_NTFN       (TACET_CHILD_FIRST_FREE + 0)
#define MAX_ACKS        100000
#define UNHANDLED_LIMIT 1000 /* the kernel's IRQ_UNHANDLED_LIMIT */
#define REBIND_ACKED    300  /* STORM_REBIND: after this interrupt's ack, unbind and bind */
#define REBIND_OWING    600  /* ... and after this one's notification, before its ack */
#define IRQ             TACET_CHILD_DEVICE_IRQ

static volatile uint32_t *rtc = (volatile uint32_t *)RTC_VA;

static unsigned long line; /* our interrupt line's number */
static unsigned long told; /* acks that returned TACET_EDISABLED */

/* Which line is ours: the one that has fired, is bound, and is not the console's. */
static unsigned long find_line(void)
{
	struct tacet_irq_info ii;

	for (unsigned long i = 1; tacet_info(TACET_INFO_IRQ, i, &ii, sizeof(ii)) > 0; i++)
		if (ii.bound && ii.count && ii.irq != 10)
			return i;
	return 0;
}

static unsigned int line_state(unsigned long *count)
{
	struct tacet_irq_info ii;

	if (!line || tacet_info(TACET_INFO_IRQ, line, &ii, sizeof(ii)) < 0)
		return ~0u;
	*count = ii.count;
	return ii.state;
}

/* Let the line go and take it again (what a driver restarting its interrupt handling does),
 * and say so: 0, or the error. */
static long rebind(unsigned long seen, const char *how)
{
	long err = tacet_irq_unbind(IRQ);

	if (!err)
		err = tacet_irq_bind(IRQ, SLOT_NTFN, 1, 0);
	printf("storm: rebinding after %lu interrupts (%s): %s\n", seen, how,
	       err ? tacet_strerror(err) : "done");
	return err;
}

/* Acknowledge as not handled: 0, or TACET_EDISABLED counted in `told`. */
static long ack_unhandled(void)
{
	long err = tacet_irq_ack(IRQ, 0);

	if (err == -TACET_EDISABLED) {
		told++;
		return 0;
	}
	return err;
}

/* One notification of the stuck line: drive it again and acknowledge (rebinding on the way
 * with STORM_REBIND). Returns 0, or an error after printing it. */
static long one_notification(enum storm_mode mode, unsigned long seen)
{
	long err;

	rtc[GOLDFISH_RTC_IRQ_ENABLED / 4] = 1;
	if (mode == STORM_REBIND && seen == REBIND_OWING)
		return rebind(seen, "the last not acknowledged"); /* its ack is still owed */
	err = ack_unhandled();
	if (err)
		printf("storm: ack: %s\n", tacet_strerror(err));
	if (!err && mode == STORM_REBIND && seen == REBIND_ACKED)
		return rebind(seen, "acknowledged");
	return err;
}

/* STORM_REBIND, once the line is disabled: let it go and take it again; it must stay
 * disabled (only irq_enable turns it back on). Returns 0, or 1 after printing the failure. */
static int rebind_disabled(unsigned long count)
{
	unsigned int state;

	if (rebind(count, "disabled"))
		return 1;
	state = line_state(&count);
	printf("storm: rebind: bound again, the line is %s: %s\n",
	       state == 3 ? "still disabled" : "no longer disabled", state == 3 ? "PASS" : "FAIL");
	return state == 3 ? 0 : 1;
}

int storm_run(enum storm_mode mode)
{
	static const char *const names[] = {
		[STORM_UNHANDLED] = "unhandled", [STORM_REBIND] = "rebind",
	};
	const char *what = names[mode];
	unsigned long seen = 1, count = 0;
	long err;
	int ok;

	err = tacet_map(TACET_CHILD_SELF, TACET_CHILD_DEVICE, RTC_VA,
			TACET_RIGHT_READ | TACET_RIGHT_WRITE);
	if (!err)
		err = tacet_ntfn_new(SLOT_NTFN);
	if (!err)
		err = tacet_irq_bind(IRQ, SLOT_NTFN, 1, 0);
	if (err) {
		printf("storm: cannot start: %s\n", tacet_strerror(err));
		return 1;
	}
	rtc[GOLDFISH_RTC_IRQ_ENABLED / 4] = 1;
	rtc[GOLDFISH_RTC_ALARM_HIGH / 4] = 0;
	rtc[GOLDFISH_RTC_ALARM_LOW / 4] = 1; /* an alarm long past: the line rises and stays up */
	tacet_wait(SLOT_NTFN);      /* the first interrupt */
	line = find_line();
	rtc[GOLDFISH_RTC_IRQ_ENABLED / 4] = 1;
	err = ack_unhandled();
	/* Never clear the device, so it interrupts again after every acknowledgement, until the
	 * kernel disables the line. QEMU 7.2's PLIC latches a source only when the device drives
	 * its line again (it does not re-sample a level that stayed high at completion), so the
	 * stuck device is modelled by rewriting IRQ_ENABLED, which makes the RTC drive it again. */
	while (!err && seen < MAX_ACKS && line_state(&count) != 3) {
		if (tacet_poll(SLOT_NTFN))
			err = one_notification(mode, ++seen);
		else
			tacet_yield();
	}
	if (err || line_state(&count) != 3) {
		printf("storm: %s: FAIL: the line was not disabled after %lu acks\n", what, seen);
		return 1;
	}
	/* Rebinding must not have restarted the count: disabled at the limit, as without. */
	ok = mode != STORM_REBIND || count == UNHANDLED_LIMIT;
	printf("storm: %s: line disabled after %lu interrupts: %s\n", what, count,
	       ok ? "PASS" : "FAIL (not at the limit: the rebinds reset the kernel's count)");
	if (!ok || (mode == STORM_REBIND && rebind_disabled(count)))
		return 1;
	/* The ack that disabled it told the driver; so does any later one. */
	if (!told)
		(void)ack_unhandled();
	err = ack_unhandled();
	printf("storm: %s: the driver was told: %lu acks returned EDISABLED: %s\n", what, told,
	       !err && told == 2 ? "PASS" : "FAIL");
	if (err || told != 2)
		return 1;
	/* Fix the device, turn the line back on: it works normally again. */
	rtc[GOLDFISH_RTC_CLEAR_INTERRUPT / 4] = 1;
	rtc[GOLDFISH_RTC_IRQ_ENABLED / 4] = 0;
	tacet_poll(SLOT_NTFN);
	err = tacet_irq_enable(IRQ);
	/* an interrupt the PLIC latched before the device was cleared may still come, once */
	for (int i = 0; !err && i < 100; i++) {
		if (tacet_poll(SLOT_NTFN))
			err = tacet_irq_ack(IRQ, 1);
		tacet_yield();
	}
	if (err || line_state(&count) != 1) {
		printf("storm: %s: FAIL: after irq_enable (%s) the line is in state %u\n", what,
		       tacet_strerror(err), line_state(&count));
		return 1;
	}
	printf("storm: %s: re-enabled: PASS\n", what);
	return 0;
}
