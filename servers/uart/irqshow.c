/* irqshow.c: the shell's interrupt and hart commands (irqshow.h): irqs and irqtop's table,
 * irqhist, harts and metrics, rendered by lib's metrics renderer (<tacet/metrics.h>) onto the
 * console (stdout), from the kernel's figures as the console server sees them: with the trace
 * authority init gives it (`%` in its init.run= entry), every line's timing. The shell's one
 * thread calls these; irqtop's rates are its state. */
#include <stdio.h>
#include <stdlib.h>
#include <tacet.h>
#include <tacet/init_proto.h>
#include <tacet/metrics.h>
#include "irqshow.h"

static struct metrics_rates rates;

static void console_write(void *ctx, const char *text, size_t len)
{
	(void)ctx;
	fwrite(text, 1, len, stdout);
}

static const struct tacet_sink console = { .write = console_write };

static struct metrics_source kernel(void)
{
	struct metrics_source src;

	metrics_kernel_source(&src, TACET_CHILD_TRACE);
	return src;
}

void irq_rates_start(void)
{
	struct metrics_source src = kernel();

	metrics_rates_start(&src, &rates);
}

void irq_table(int rate, int by_latency)
{
	struct metrics_source src = kernel();

	metrics_irqs(&src, &console, rate ? &rates : NULL, by_latency);
}

void cmd_irqhist(const char *arg)
{
	struct metrics_source src = kernel();
	char *end = NULL;
	unsigned long line = arg ? strtoul(arg, &end, 0) : 0;

	if (!arg || !*arg || *end) {
		printf("usage: irqhist LINE (a line's number, as irqs lists it)\n");
		return;
	}
	metrics_irqhist(&src, &console, line);
}

void cmd_harts(void)
{
	struct metrics_source src = kernel();

	metrics_harts(&src, &console);
}

void cmd_metrics(void)
{
	struct metrics_source src = kernel();

	metrics_prometheus(&src, &console);
}
