/* tracethief: a server without the trace authority (its init.run= entry has no `%`) tries to
 * stop the kernel's event trace (empty slot, then a capability of another kind), to read it,
 * and reads every interrupt line (qemu/trace-authority-refused): the trace calls must be
 * refused with EPERM, and no line it is not bound to may show it timing (stamps, times,
 * histograms), while the counts stay readable (some line has fired: it asked rng first). */
#include <stdint.h>
#include <stdio.h>
#include <tacet.h>
#include <tacet/init_proto.h>
#include <tacet/random.h>

/* Whether any of line i's timing is shown (INFO_IRQ and INFO_IRQ_HIST); *count its count. */
static int timing_shown(unsigned long i, unsigned long *count)
{
	struct tacet_irq_info ii = { 0 };
	struct tacet_irq_hist ih = { 0 };
	unsigned long any = 0;

	tacet_info(TACET_INFO_IRQ, i, &ii, sizeof(ii));
	tacet_info(TACET_INFO_IRQ_HIST, i, &ih, sizeof(ih));
	*count = ii.count;
	any = ii.last_trap | ii.last_done | ii.top_half_max | ii.top_half_total | ii.wake_max |
	      ii.wake_avg | ii.server_max | ii.server_avg | ih.top_max | ih.wake_max | ih.server_max;
	for (unsigned int k = 0; k < TACET_IRQ_HIST_BUCKETS; k++)
		any |= ih.top[k] | ih.wake[k] | ih.server[k];
	return any != 0;
}

int main(void)
{
	struct tacet_irq_info ii;
	struct tacet_trace_info ti;
	uint8_t rnd[16];
	long got = tacet_random(rnd, sizeof(rnd));
	long stop = tacet_trace(TACET_TRACE_STOP, TACET_CHILD_TRACE);
	long other = tacet_trace(TACET_TRACE_STOP, TACET_CHILD_INIT);
	long read = tacet_info_traced(TACET_CHILD_TRACE, TACET_INFO_TRACE, 0, &ti, sizeof(ti));
	unsigned long lines = 0, fired = 0, timed = 0, count;
	int ok;

	for (unsigned long i = 1; tacet_info(TACET_INFO_IRQ, i, &ii, sizeof(ii)) > 0; i++) {
		lines++;
		timed += timing_shown(i, &count);
		fired += count > 0;
	}
	ok = got >= 0 && stop == -TACET_EPERM && other == -TACET_EPERM && read == -TACET_EPERM &&
	     fired && !timed;
	printf("tracethief: trace stop: %s; with init's endpoint: %s; trace read: %s; %lu lines, "
	       "%lu fired, %lu showed timing: %s\n", tacet_strerror(stop), tacet_strerror(other),
	       tacet_strerror(read), lines, fired, timed, ok ? "PASS" : "FAIL");
	return ok ? 0 : 1;
}
