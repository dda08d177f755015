/* traceshow.c: the shell's `trace` command: the kernel's event trace (<tacet/trace.h>,
 * docs/tracing.md), recorded from boot when the kernel was booted with trace=on.
 *   trace off    stop recording (the rings keep what they hold)
 *   trace on     record again, after what the rings hold
 *   trace dump   stop recording and print every hart's ring, framed for tools/trace/trace.py:
 *     TRACE begin 1 harts N
 *     TRACE clock timebase HZ start CYCLES TIME now CYCLES TIME
 *     TRACE irq LINE COUNT              (the kernel's count of every line taken or bound, as
 *                                       recording stopped: the dump's own output interrupts)
 *     TRACE ring HART capacity C count N dropped D
 *     TRACE ev HART FIRST HEX CHECK    (up to 3 events from the FIRST-th, as the kernel holds
 *                                       them: little-endian struct tacet_trace_event)
 *     TRACE thread TID HART NAME        (the threads alive now)
 *     TRACE end LINES                   (the lines from begin to end, both counted)
 *   CHECK is the FNV-1a hash (32 bits, 8 hex digits) of the line before its last space, so a
 *   line the console mangled is found, not decoded. Each line fits the 256-byte printf line. */
#include <stdio.h>
#include <string.h>
#include <tacet.h>
#include <tacet/init_proto.h>
#include "traceshow.h"

/* An info call with the trace authority init gives the console server (`%` in its init.run=
 * entry): every line's timing, the trace. */
static long info_traced(unsigned long kind, unsigned long index, void *buf, unsigned long len)
{
	return tacet_info_traced(TACET_CHILD_TRACE, kind, index, buf, len);
}

#define EVENTS_PER_LINE 3

static unsigned long lines;

static unsigned int fnv1a(const char *s, size_t n)
{
	unsigned int h = 2166136261u;

	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

/* One framed line: "TRACE " + text, then for an ev line its check. */
static void frame(const char *text, int checked)
{
	char line[240];
	int n = snprintf(line, sizeof(line), "TRACE %s", text);

	if (checked)
		printf("%s %08x\n", line, fnv1a(line, (size_t)n));
	else
		printf("%s\n", line);
	lines++;
}

static void hex(char *out, const void *p, size_t n)
{
	static const char digits[] = "0123456789abcdef";
	const unsigned char *b = p;

	for (size_t i = 0; i < n; i++) {
		out[2 * i] = digits[b[i] >> 4];
		out[2 * i + 1] = digits[b[i] & 15];
	}
	out[2 * n] = '\0';
}

static struct {
	struct tacet_trace_info h;
	struct tacet_trace_event ev[TACET_TRACE_CHUNK];
} chunk;

/* Hart h's ring, EVENTS_PER_LINE events a line; its header line first. */
static void dump_ring(unsigned long h)
{
	char text[224];
	unsigned long first = 0, count;

	if (info_traced(TACET_INFO_TRACE, h, &chunk, sizeof(chunk)) < 0)
		return;
	count = chunk.h.count;
	snprintf(text, sizeof(text), "ring %lu capacity %lu count %lu dropped %lu", h,
		 chunk.h.capacity, count, chunk.h.dropped);
	frame(text, 0);
	while (first < count) {
		long got = info_traced(TACET_INFO_TRACE, h | first << 8, &chunk, sizeof(chunk));

		if (got < 0 || !chunk.h.events)
			break;
		for (unsigned long i = 0; i < chunk.h.events; i += EVENTS_PER_LINE) {
			unsigned long n = chunk.h.events - i < EVENTS_PER_LINE ? chunk.h.events - i
										  : EVENTS_PER_LINE;
			int k = snprintf(text, sizeof(text), "ev %lu %lu ", h, first + i);

			hex(text + k, &chunk.ev[i], n * sizeof(chunk.ev[0]));
			frame(text, 1);
		}
		first += chunk.h.events;
	}
}

static void dump(void)
{
	char text[224];
	struct tacet_thread_info ti;
	struct tacet_irq_info ii;
	unsigned long nharts = 0;

	tacet_trace(TACET_TRACE_STOP, TACET_CHILD_TRACE);
	while (info_traced(TACET_INFO_TRACE, nharts, &chunk.h, sizeof(chunk.h)) > 0)
		nharts++;
	lines = 0;
	snprintf(text, sizeof(text), "begin 1 harts %lu", nharts);
	frame(text, 0);
	info_traced(TACET_INFO_TRACE, 0, &chunk.h, sizeof(chunk.h));
	snprintf(text, sizeof(text), "clock timebase %lu start %lu %lu now %lu %lu",
		 chunk.h.timebase_hz, chunk.h.start_cycles, chunk.h.start_time, chunk.h.cycles,
		 chunk.h.time);
	frame(text, 0);
	/* the counts first: the dump's own output interrupts (the console's line) are not traced */
	for (unsigned long i = 1; info_traced(TACET_INFO_IRQ, i, &ii, sizeof(ii)) > 0; i++) {
		if (!ii.bound && !ii.count)
			continue;
		snprintf(text, sizeof(text), "irq %u %lu", ii.irq, ii.count);
		frame(text, 0);
	}
	for (unsigned long h = 0; h < nharts; h++)
		dump_ring(h);
	for (unsigned long i = 0; tacet_info(TACET_INFO_THREAD, i, &ti, sizeof(ti)) > 0; i++) {
		snprintf(text, sizeof(text), "thread %u %u %.16s", ti.tid, ti.hart, ti.process);
		frame(text, 0);
	}
	snprintf(text, sizeof(text), "end %lu", lines + 1);
	frame(text, 0);
	fflush(stdout);
}

void cmd_trace(const char *arg)
{
	long err = 0;

	if (arg && !strcmp(arg, "dump")) {
		dump();
		return;
	}
	if (arg && !strcmp(arg, "on"))
		err = tacet_trace(TACET_TRACE_START, TACET_CHILD_TRACE);
	else if (arg && !strcmp(arg, "off"))
		err = tacet_trace(TACET_TRACE_STOP, TACET_CHILD_TRACE);
	else {
		printf("usage: trace on|off|dump\n");
		return;
	}
	if (err)
		printf("trace: %s (boot with trace=on)\n", tacet_strerror(err));
}
