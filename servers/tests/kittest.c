/* kittest: the driver kit's calls (<tacet/driver.h>) on the goldfish RTC (init.run=
 * kittest:goldfish-rtc): the timebase, sleeping, slots and addresses, DMA buffers, opening the
 * device, and the interrupt loop: a timeout with no interrupt, an alarm interrupt within a
 * timeout, the driver's own bits, and bits that arrive together (none is lost). No IPC protocol.
 */
#include <stdio.h>
#include <string.h>
#include <tacet.h>
#include <tacet/goldfish_rtc.h>

#define MS              1000000ull
#define OWN_BIT         (1ul << 5)
#define BURST           200

static int failures;

static void check(int ok, const char *what)
{
	printf("kittest: %s: %s\n", what, ok ? "PASS" : "FAIL");
	failures += !ok;
}

static void time_checks(void)
{
	uint64_t t0 = tacet_time_ns(), slept;

	printf("kittest: timebase %lu Hz\n", tacet_timebase_hz());
	check(tacet_timebase_hz() > 0, "timebase from the information page");
	check(tacet_ns_to_ticks(1) == 1 && tacet_ns_to_ticks(0) == 0 &&
		      tacet_ticks_to_ns(tacet_timebase_hz()) == 1000000000ull,
	      "conversions round up to a tick, a second of ticks is 1e9 ns");
	check(tacet_sleep_ns(20 * MS) == 0, "sleep 20 ms");
	slept = tacet_time_ns() - t0;
	printf("kittest: slept %llu us\n", (unsigned long long)(slept / 1000));
	check(slept >= 20 * MS && slept < 500 * MS, "sleep lasted at least 20 ms");
}

static void va_and_dma_checks(void)
{
	unsigned long a = tacet_va_alloc(4), b = tacet_va_alloc(1), pa = 0, pages = 0;
	struct tacet_dma dma, again;
	int zero = 1;

	check(a >= TACET_VA_BASE && b >= a + 5 * TACET_PAGE_SIZE && tacet_va_alloc(0) == 0,
	      "addresses apart, with a guard page");
	tacet_va_free(b, 1);
	tacet_va_free(a, 4);
	check(tacet_va_alloc(2) == a, "a range given back is used again");
	tacet_va_free(a, 2);
	check(tacet_dma_alloc(3 * TACET_PAGE_SIZE + 1, &dma) == 0, "DMA buffer of 4 pages");
	for (unsigned long i = 0; i < dma.size; i++)
		zero &= ((volatile uint8_t *)dma.va)[i] == 0;
	memset(dma.va, 0x5a, dma.size);
	tacet_frame_info(dma.slot, &pa, &pages);
	check(zero && dma.size == 4 * TACET_PAGE_SIZE && pa == dma.pa && pages == 4 &&
		  dma.pa % TACET_PAGE_SIZE == 0,
	      "zeroed, whole pages, its physical address");
	tacet_dma_free(&dma);
	check(tacet_dma_alloc(TACET_PAGE_SIZE, &again) == 0 &&
		  ((volatile uint8_t *)again.va)[0] == 0,
	      "freed and allocated again, zeroed");
	tacet_dma_free(&again);
	check(tacet_dma_alloc(0, &again) == -TACET_ERANGE &&
		  tacet_dma_alloc((TACET_FRAME_MAX_PAGES + 1) * TACET_PAGE_SIZE, &again) ==
		      -TACET_ERANGE,
	      "0 bytes and more than 256 pages -> ERANGE");
}

/* BURST alarms back to back, each `ahead` ns after the last was handled (0: at once, raised
 * before the driver waits), each cleared and acknowledged the way a driver's loop does: the
 * acknowledgement goes into the next wait. Prints the time each took; counts those that came
 * as interrupts. */
static unsigned int burst(struct tacet_device *rtc, uint64_t ahead, uint64_t timeout_ns)
{
	uint64_t t0 = tacet_time_ns();
	unsigned int got = 0;

	for (unsigned int i = 0; i < BURST; i++) {
		goldfish_rtc_alarm_in(rtc, ahead);
		got += tacet_device_wait(rtc, timeout_ns) == (long)TACET_DEVICE_IRQ;
		mmio_write32(rtc->regs + GOLDFISH_RTC_CLEAR_INTERRUPT, 1);
		tacet_device_ack(rtc, 1);
	}
	printf("kittest: %u interrupts, %llu us apart, timeout %llu ms: %llu ns each\n", got,
	       (unsigned long long)(ahead / 1000), (unsigned long long)(timeout_ns / MS),
	       (unsigned long long)((tacet_time_ns() - t0) / BURST));
	return got;
}

static void device_checks(void)
{
	struct tacet_device rtc, none;
	uint64_t t0, waited;
	long ev;

	check(tacet_device_open(&none, "ns16550a", 0, 0) == -TACET_ENOENT &&
		      tacet_device_open(&none, "goldfish-rtc", 1, 0) == -TACET_ENOENT,
	      "a device not given -> ENOENT");
	ev = tacet_device_open(&rtc, "goldfish-rtc", 0, 0);
	check(ev == 0, "open goldfish-rtc");
	if (ev)
		return;
	printf("kittest: rtc at %#lx, irq %u, registers at %p\n", rtc.paddr, rtc.irq,
	       (void *)rtc.regs);
	check(goldfish_rtc_now(&rtc) > 1600000000ull * 1000000000ull, "the RTC reads the time of day");

	t0 = tacet_time_ns();
	ev = tacet_device_wait(&rtc, 30 * MS);
	waited = tacet_time_ns() - t0;
	check(ev == (long)TACET_DEVICE_TIMEOUT && waited >= 30 * MS, "no interrupt: timeout");

	goldfish_rtc_alarm_in(&rtc, 20 * MS);
	t0 = tacet_time_ns();
	ev = tacet_device_wait(&rtc, 300 * MS);
	waited = tacet_time_ns() - t0;
	printf("kittest: alarm after %llu us\n", (unsigned long long)(waited / 1000));
	check(ev == (long)TACET_DEVICE_IRQ && waited < 300 * MS, "alarm: interrupt before timeout");
	mmio_write32(rtc.regs + GOLDFISH_RTC_CLEAR_INTERRUPT, 1); /* the device first, */
	check(tacet_device_ack(&rtc, 1) == 0, "cleared, then acknowledged"); /* then the line */

	/* The timeout armed above ends no later wait, even once its time has passed. */
	tacet_signal(rtc.ntfn_slot, OWN_BIT);
	check(tacet_device_wait(&rtc, 0) == (long)OWN_BIT, "the driver's own bit");
	tacet_sleep_ns(320 * MS - waited); /* past the earlier wait's deadline */
	t0 = tacet_time_ns();
	ev = tacet_device_wait(&rtc, 10 * MS);
	check(ev == (long)TACET_DEVICE_TIMEOUT && tacet_time_ns() - t0 >= 10 * MS,
	      "an earlier wait's timeout ends no later wait");

	/* Two events in one notification word: the interrupt comes first, the other is kept. */
	goldfish_rtc_alarm_in(&rtc, 1 * MS);
	tacet_sleep_ns(20 * MS);
	tacet_signal(rtc.ntfn_slot, OWN_BIT);
	ev = tacet_device_wait(&rtc, 100 * MS);
	mmio_write32(rtc.regs + GOLDFISH_RTC_CLEAR_INTERRUPT, 1);
	tacet_device_ack(&rtc, 1);
	check(ev == (long)TACET_DEVICE_IRQ, "interrupt and own bit together: the interrupt first");
	check(tacet_device_wait(&rtc, 100 * MS) == (long)OWN_BIT, "then the own bit, kept");
	check(tacet_device_wait(&rtc, 10 * MS) == (long)TACET_DEVICE_TIMEOUT, "then nothing");

	/* Acknowledged in the next wait, every interrupt comes: with a timeout and without (the
	 * last acknowledgement is made by tacet_device_notified, below). */
	check(burst(&rtc, 0, 100 * MS) == BURST && burst(&rtc, 0, 0) == BURST &&
		      burst(&rtc, 200000, 100 * MS) == BURST && burst(&rtc, 200000, 0) == BURST,
	      "interrupts back to back, each acknowledged by the next wait");
	check(tacet_device_notified(&rtc, TACET_DEVICE_IRQ | OWN_BIT) == (long)TACET_DEVICE_IRQ &&
		      tacet_device_notified(&rtc, 0) == (long)OWN_BIT &&
		      tacet_device_notified(&rtc, 0) == 0,
	      "bits from a NOTIFY message, one event at a time");
	tacet_device_close(&rtc);
	check(tacet_device_open(&rtc, "google,goldfish-rtc", 0, 0) == 0, "closed and opened again");
	tacet_device_close(&rtc);
}

int main(void)
{
	long a = tacet_slot_alloc(), b = tacet_slot_alloc();

	check(a >= 96 && b > a, "slots from lib's range");
	tacet_slot_free((unsigned long)a);
	check(tacet_slot_alloc() == a, "a slot freed is handed out again");
	time_checks();
	va_and_dma_checks();
	device_checks();
	printf("kittest: %s\n", failures ? "FAIL" : "all checks passed");
	return failures != 0;
}
