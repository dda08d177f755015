/* irqshow.h: the shell's interrupt and hart statistics commands (irqshow.c), for uart.c's
 * shell: irqs, the table irqtop redraws, irqhist LINE, harts (times in the units one line
 * above each table names), and metrics (the Prometheus text). */
#ifndef SERVERS_UART_IRQSHOW_H
#define SERVERS_UART_IRQSHOW_H

/* The lines' table (irqs); with rate, the interrupts a second since the last table (irqtop,
 * redrawn every second); by_latency: the worst wake-up latency first, else by line. */
void irq_table(int rate, int by_latency);
/* irqtop's first rates count from now. */
void irq_rates_start(void);
/* irqhist LINE: the line's three histograms as text bars. */
void cmd_irqhist(const char *arg);
/* harts: each hart's counts and its longest BKL hold (and what held it) and wait. */
void cmd_harts(void);
/* metrics: the same figures in the Prometheus text format (times in cycles). */
void cmd_metrics(void);

#endif
