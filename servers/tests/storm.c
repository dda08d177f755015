/* storm: a driver for the goldfish RTC that makes its alarm interrupt stay asserted, to test
 * the kernel's storm and spurious detection. Started as `storm:goldfish-rtc`; a0 picks
 * the scenario: even, a storm (it acks "handled" without clearing the device); odd, nobody
 * handles it (it acks "not handled"). Either way the kernel must disable the line, report it,
 * and keep everything else running; then irq_enable and a proper clear bring it back.
 * No IPC protocol. */
#include <stdio.h>
#include <tacet.h>
#include <tacet/init_proto.h>

#define RTC_VA          0x0000002000000000ul
#define RTC_ALARM_LOW   0x08
#define RTC_ALARM_HIGH  0x0c
#define RTC_IRQ_ENABLED 0x10
#define RTC_CLEAR_INT   0x1c
#define SLOT_NTFN       (TACET_CHILD_FIRST_FREE + 0)
#define MAX_ACKS        100000

static volatile uint32_t *rtc = (volatile uint32_t *)RTC_VA;

static unsigned long line; /* our interrupt line's number */

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

int main(void)
{
	int storm = !(tacet_start_arg & 1);
	const char *what = storm ? "storm" : "unhandled";
	unsigned long acks = 0, count = 0;
	long err;

	err = tacet_map(TACET_CHILD_SELF, TACET_CHILD_DEVICE, RTC_VA,
			TACET_RIGHT_READ | TACET_RIGHT_WRITE);
	if (!err)
		err = tacet_ntfn_new(SLOT_NTFN);
	if (!err)
		err = tacet_irq_bind(TACET_CHILD_DEVICE_IRQ, SLOT_NTFN, 1, 0);
	if (err) {
		printf("storm: cannot start: %s\n", tacet_strerror(err));
		return 1;
	}
	rtc[RTC_IRQ_ENABLED / 4] = 1;
	rtc[RTC_ALARM_HIGH / 4] = 0;
	rtc[RTC_ALARM_LOW / 4] = 1; /* an alarm long past: the line rises and stays up */
	tacet_wait(SLOT_NTFN);      /* the first interrupt */
	line = find_line();
	rtc[RTC_IRQ_ENABLED / 4] = 1;
	tacet_irq_ack(TACET_CHILD_DEVICE_IRQ, storm);
	/* Never clear the device, so it interrupts again after every acknowledgement, until the
	 * kernel disables the line. QEMU 7.2's PLIC latches a source only when the device drives
	 * its line again (it does not re-sample a level that stayed high at completion), so the
	 * stuck device is modelled by rewriting IRQ_ENABLED, which makes the RTC drive it again. */
	while (acks < MAX_ACKS && line_state(&count) != 3) {
		if (tacet_poll(SLOT_NTFN)) {
			rtc[RTC_IRQ_ENABLED / 4] = 1;
			tacet_irq_ack(TACET_CHILD_DEVICE_IRQ, storm);
			acks++;
		} else {
			tacet_yield();
		}
	}
	if (line_state(&count) != 3) {
		printf("storm: %s: FAIL: the line was not disabled after %lu acks\n", what, acks);
		return 1;
	}
	printf("storm: %s: line disabled after %lu interrupts: PASS\n", what, count);
	/* Fix the device, turn the line back on: it works normally again. */
	rtc[RTC_CLEAR_INT / 4] = 1;
	rtc[RTC_IRQ_ENABLED / 4] = 0;
	tacet_poll(SLOT_NTFN);
	err = tacet_irq_enable(TACET_CHILD_DEVICE_IRQ);
	/* an interrupt the PLIC latched before the device was cleared may still come, once */
	for (int i = 0; !err && i < 100; i++) {
		if (tacet_poll(SLOT_NTFN))
			tacet_irq_ack(TACET_CHILD_DEVICE_IRQ, 1);
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
