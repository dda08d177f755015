/* pcigone: a client of the entropy service while the PCI bus server that granted rng its
 * virtio-pci function ends (tests/qemu/cases_virtio.py, rng-pci-bus-ends). Reads 4096 bytes,
 * reports pci's instance to init as stuck (its entry grants it "pci" and pci's has `~MS`: init
 * ends that instance and restarts it), waits until the next instance has published "pci" (it
 * has quieted every function by then: the device rng offered its requests to no longer does
 * DMA), then reads 4096 bytes again: they must come, and look random, within READ_MS. The
 * message-signalled lines lent to devices (TACET_INFO_IRQ's lent: rng's vector on the AIA's
 * machine, none on the PLIC's) are as many after as before: the ended pci's lending ended with
 * it, and its next instance lent rng's next claim a line afresh. Exits 0 when every check
 * passed. No IPC protocol of its own. */
#include <stdio.h>
#include <tacet.h>
#include <tacet/random.h>

#define BYTES        4096 /* more than rng keeps ready (8 chunks of 64): the device must work */
#define MIN_DISTINCT 240  /* of 256 (rngtest's bound) */
#define READ_MS      5000 /* the bound on the second read: a restart of rng and its claim */
#define LOOKUP_TRIES 10000

static unsigned char buf[BYTES];

/* 4096 bytes from the entropy service: 1 if they came and take MIN_DISTINCT values at least. */
static int read_random(const char *when, unsigned long *ms)
{
	unsigned int seen[256] = { 0 }, distinct = 0;
	unsigned long start = tacet_time();
	long got = tacet_random(buf, sizeof(buf));

	*ms = (tacet_time() - start) * 1000 / tacet_timebase_hz();
	for (long i = 0; i < got; i++)
		distinct += !seen[buf[i]]++;
	printf("pcigone: %s: %ld bytes in %lu ms, %u distinct values: %s\n", when, got, *ms,
	       distinct, got == BYTES && distinct >= MIN_DISTINCT ? "PASS" : "FAIL");
	return got == BYTES && distinct >= MIN_DISTINCT;
}

/* The message-signalled lines lent to devices now. */
static unsigned int lent_lines(void)
{
	struct tacet_irq_info ii;
	unsigned int lent = 0;

	for (unsigned long irq = 1; tacet_info(TACET_INFO_IRQ, irq, &ii, sizeof(ii)) > 0; irq++)
		lent += ii.msi && ii.lent;
	return lent;
}

/* pci's instance reported to init; 0 once its next instance has published, else the error. */
static long end_pci(unsigned long *was, unsigned long *now)
{
	long slot = tacet_slot_alloc();
	long err = slot < 0 ? slot : tacet_lookup_instance("pci", (unsigned long)slot, LOOKUP_TRIES,
							    was);

	if (!err)
		err = tacet_report_stuck("pci", *was);
	printf("pcigone: pci instance %lu reported to init: %s\n", *was,
	       err ? tacet_strerror(err) : "ended");
	*now = *was;
	while (!err && *now == *was) {
		tacet_sleep_ns(1000000);
		err = tacet_reconnect_instance("pci", (unsigned long)slot, LOOKUP_TRIES, now);
	}
	return err;
}

int main(void)
{
	unsigned long ms, was = 0, now = 0;
	int ok = read_random("before pci's end", &ms);
	unsigned int lent = lent_lines(), lent_after;
	long err = end_pci(&was, &now);

	if (err) {
		printf("pcigone: FAIL: pci's next instance: %s\n", tacet_strerror(err));
		return 1;
	}
	printf("pcigone: pci instance %lu answers\n", now);
	ok &= read_random("after pci's end", &ms);
	ok &= ms < READ_MS;
	printf("pcigone: rng served again within %d ms of pci's next instance: %s\n", READ_MS,
	       ok ? "PASS" : "FAIL");
	lent_after = lent_lines();
	printf("pcigone: message-signalled lines lent: %u before pci's end, %u after: %s\n", lent,
	       lent_after, lent_after == lent ? "PASS" : "FAIL");
	return !ok || lent_after != lent;
}
