/* irqbad: every interrupt system call with bad arguments gets its error code, and the line
 * still works afterwards. Started as `irqbad:goldfish-rtc` (the RTC's alarm is the interrupt:
 * its frame and line arrive in TACET_CHILD_DEVICE / TACET_CHILD_DEVICE_IRQ).
 * Prints `irqbad: WHAT -> ERROR: PASS` per check, `irqbad: the line still works: PASS`, then
 * `irqbad: N checks, N failed`. No IPC protocol. */
#include <stdio.h>
#include <tacet.h>
#include <tacet/driver.h>
#include <tacet/goldfish_rtc.h>
#include <tacet/init_proto.h>

#define RTC_VA          0x0000002000000000ul
#define IRQ             TACET_CHILD_DEVICE_IRQ
#define SLOT_NTFN       (TACET_CHILD_FIRST_FREE + 0)
#define SLOT_IRQ_RO     (TACET_CHILD_FIRST_FREE + 1) /* the line without the write right */
#define SLOT_EMPTY      (TACET_CHILD_FIRST_FREE + 2)
#define SLOT_NTFN_WO    (TACET_CHILD_FIRST_FREE + 3) /* the notification without the read right */
#define SLOT_BEYOND     1000
#define NO_SUCH_HART    99
#define BAD_FLAG        0x80ul
#define LOST_NS         1000000000ull /* 1 s */

static unsigned int checks, failed;

static void expect(const char *what, long got, long want)
{
	checks++;
	if (got == want) {
		printf("irqbad: %s -> %s: PASS\n", what, want ? tacet_strerror(want) : "0");
		return;
	}
	failed++;
	printf("irqbad: %s -> %s, expected %s: FAIL\n", what, got ? tacet_strerror(got) : "0",
	       want ? tacet_strerror(want) : "0");
}

static unsigned long harts(void)
{
	struct tacet_hart_info hi;
	unsigned long n = 0;

	while (tacet_info(TACET_INFO_HART, n, &hi, sizeof(hi)) > 0)
		n++;
	return n;
}

/* The refused calls, before and after the line is bound. */
static void bad_calls(void)
{
	expect("ack a line not bound", tacet_irq_ack(IRQ, 1), -TACET_EINVAL);
	expect("ack_wait a line not bound", tacet_irq_ack_wait(IRQ, 1, SLOT_NTFN, NULL),
	       -TACET_EINVAL);
	expect("ack_wait with a read-only line capability",
	       tacet_irq_ack_wait(SLOT_IRQ_RO, 1, SLOT_NTFN, NULL), -TACET_EPERM);
	expect("unbind a line not bound", tacet_irq_unbind(IRQ), -TACET_EINVAL);
	expect("enable a line not disabled", tacet_irq_enable(IRQ), -TACET_EINVAL);
	expect("bind without a capability (empty slot)", tacet_irq_bind(SLOT_EMPTY, SLOT_NTFN, 1, 0),
	       -TACET_EEMPTY);
	expect("bind a slot beyond the table", tacet_irq_bind(SLOT_BEYOND, SLOT_NTFN, 1, 0),
	       -TACET_EBADSLOT);
	expect("bind a notification as a line", tacet_irq_bind(SLOT_NTFN, SLOT_NTFN, 1, 0),
	       -TACET_ETYPE);
	expect("bind with a read-only line capability", tacet_irq_bind(SLOT_IRQ_RO, SLOT_NTFN, 1, 0),
	       -TACET_EPERM);
	expect("bind to the line itself as notification", tacet_irq_bind(IRQ, IRQ, 1, 0),
	       -TACET_ETYPE);
	expect("bind with badge 0", tacet_irq_bind(IRQ, SLOT_NTFN, 0, 0), -TACET_EINVAL);
	expect("bind with badge bit 63", tacet_irq_bind(IRQ, SLOT_NTFN, 1ul << 63, 0),
	       -TACET_EINVAL);
	expect("bind with an unknown flag", tacet_irq_bind(IRQ, SLOT_NTFN, 1, BAD_FLAG),
	       -TACET_EINVAL);
	expect("affinity to hart 99", tacet_irq_set_affinity(IRQ, NO_SUCH_HART), -TACET_EINVAL);
	expect("affinity to the hart after the last", tacet_irq_set_affinity(IRQ, harts()),
	       -TACET_EINVAL);
	expect("affinity without the write right", tacet_irq_set_affinity(SLOT_IRQ_RO, 0),
	       -TACET_EPERM);
}

/* The bound line's ack_wait with a notification it cannot wait on: refused before anything is
 * acknowledged (the line still works afterwards, and its counts say nothing was lost). */
static void bad_ack_waits(void)
{
	expect("ack_wait on an empty notification slot", tacet_irq_ack_wait(IRQ, 1, SLOT_EMPTY, NULL),
	       -TACET_EEMPTY);
	expect("ack_wait on a slot beyond the table", tacet_irq_ack_wait(IRQ, 1, SLOT_BEYOND, NULL),
	       -TACET_EBADSLOT);
	expect("ack_wait on the line as notification", tacet_irq_ack_wait(IRQ, 1, IRQ, NULL),
	       -TACET_ETYPE);
	expect("ack_wait on a notification without the read right",
	       tacet_irq_ack_wait(IRQ, 1, SLOT_NTFN_WO, NULL), -TACET_EPERM);
}

static void alarm_now(volatile uint32_t *rtc)
{
	rtc[GOLDFISH_RTC_IRQ_ENABLED / 4] = 1;
	rtc[GOLDFISH_RTC_ALARM_HIGH / 4] = 0;
	rtc[GOLDFISH_RTC_ALARM_LOW / 4] = 1; /* an alarm long past: the line rises now */
}

/* Two alarm interrupts through the bound line: the first taken by a wait; the second raised
 * while the line is still masked, so the ack_wait that acknowledges the first must return it at
 * once with its trap stamp. 0, or a negative code (-TACET_EDEAD: an interrupt never came). */
static long two_interrupts(volatile uint32_t *rtc)
{
	unsigned long stamp = 0;
	long bits;

	tacet_timer_set(SLOT_NTFN, 2, tacet_time() + tacet_ns_to_ticks(LOST_NS));
	alarm_now(rtc);
	bits = tacet_wait(SLOT_NTFN);
	if (bits >= 0 && !(bits & 1))
		bits = -TACET_EDEAD; /* the timer */
	if (bits >= 0) {
		rtc[GOLDFISH_RTC_CLEAR_INTERRUPT / 4] = 1;
		alarm_now(rtc);
		bits = tacet_irq_ack_wait(IRQ, 1, SLOT_NTFN, &stamp);
		if (bits >= 0 && (!(bits & 1) || !stamp))
			bits = -TACET_EDEAD;
	}
	tacet_timer_set(SLOT_NTFN, 2, 0);
	rtc[GOLDFISH_RTC_CLEAR_INTERRUPT / 4] = 1;
	rtc[GOLDFISH_RTC_IRQ_ENABLED / 4] = 0;
	if (bits < 0)
		return bits;
	return tacet_irq_ack(IRQ, 1);
}

static void line_counts(unsigned long *count, unsigned long *unhandled)
{
	struct tacet_irq_info ii = { 0 };

	tacet_info(TACET_INFO_IRQ, (unsigned long)tacet_irq_line(IRQ), &ii, sizeof(ii));
	*count = ii.count, *unhandled = ii.unhandled;
}

int main(void)
{
	volatile uint32_t *rtc = (volatile uint32_t *)RTC_VA;
	const struct tacet_bootinfo_device *rtc_dev = tacet_device_find("goldfish-rtc", 0);
	unsigned long count, unhandled, count_after, unhandled_after;
	long err = tacet_map(TACET_CHILD_SELF, TACET_CHILD_DEVICE, RTC_VA,
			     TACET_RIGHT_READ | TACET_RIGHT_WRITE);

	if (!err)
		err = tacet_ntfn_new(SLOT_NTFN);
	if (!err)
		err = tacet_cap_copy(IRQ, SLOT_IRQ_RO, TACET_RIGHT_READ, 0);
	if (!err)
		err = tacet_cap_copy(SLOT_NTFN, SLOT_NTFN_WO, TACET_RIGHT_WRITE, 0);
	if (err) {
		printf("irqbad: cannot start: %s: FAIL\n", tacet_strerror(err));
		return 1;
	}
	bad_calls();
	expect("the line's number (CAP_INFO) is the device's",
	       rtc_dev && tacet_irq_line(IRQ) == (long)rtc_dev->irq ? 0 : -TACET_EINVAL, 0);
	expect("the line's number of a notification", tacet_irq_line(SLOT_NTFN), -TACET_ETYPE);
	expect("bind", tacet_irq_bind(IRQ, SLOT_NTFN, 1, 0), 0);
	expect("bind again, not shared", tacet_irq_bind(IRQ, SLOT_NTFN, 1, 0), -TACET_EBUSY);
	expect("bind again, shared", tacet_irq_bind(IRQ, SLOT_NTFN, 1, TACET_IRQ_SHARED),
	       -TACET_EBUSY);
	expect("ack with no interrupt pending", tacet_irq_ack(IRQ, 1), 0);
	expect("enable a bound line not disabled", tacet_irq_enable(IRQ), -TACET_EINVAL);
	expect("affinity to hart 99, bound", tacet_irq_set_affinity(IRQ, NO_SUCH_HART),
	       -TACET_EINVAL);
	bad_ack_waits();
	line_counts(&count, &unhandled);
	err = two_interrupts(rtc);
	line_counts(&count_after, &unhandled_after);
	checks++;
	if (err || count_after != count + 2 || unhandled_after != unhandled)
		failed++;
	printf("irqbad: the line still works (two interrupts, the second taken by ack_wait; line "
	       "count +%lu, unhandled +%lu): %s%s\n", count_after - count, unhandled_after - unhandled,
	       err ? tacet_strerror(err) : "",
	       err || count_after != count + 2 || unhandled_after != unhandled ? ": FAIL" : "PASS");
	expect("unbind", tacet_irq_unbind(IRQ), 0);
	expect("unbind twice", tacet_irq_unbind(IRQ), -TACET_EINVAL);
	printf("irqbad: %u checks, %u failed\n", checks, failed);
	return failed ? 1 : 0;
}
