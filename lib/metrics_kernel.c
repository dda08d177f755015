/* metrics_kernel.c: the kernel as a source of figures for lib/metrics.c's renderers
 * (<tacet/metrics.h>): the info system call, with the trace authority if the caller holds it.
 * No state; called from any thread. */
#include <stdint.h>
#include <tacet.h>
#include <tacet/metrics.h>

static long kernel_info(void *ctx, unsigned long kind, unsigned long index, void *buf,
			unsigned long len)
{
	return tacet_info_traced((unsigned long)(uintptr_t)ctx, kind, index, buf, len);
}

/* Whether slot trace holds the trace authority: TACET_INFO_TRACE into no room is
 * -TACET_ERANGE with it, -TACET_EPERM without (and reads nothing either way). */
static bool traced(unsigned long trace)
{
	return trace && tacet_info_traced(trace, TACET_INFO_TRACE, 0, NULL, 0) != -TACET_EPERM;
}

void metrics_kernel_source(struct metrics_source *src, unsigned long trace)
{
	src->info = kernel_info;
	src->ctx = (void *)(uintptr_t)trace;
	src->timing = traced(trace);
}
