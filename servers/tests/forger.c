/* forger: a hostile server that forges the kernel's messages (servers are isolated).
 *
 * A receiver knows a message came from the kernel by its label: TACET_LABEL_NOTIFY (a bound
 * notification was signalled) and TACET_LABEL_FAULT (a thread faulted), both in the kernel's
 * range (TACET_LABEL_KERNEL up). With nothing but what init gives any server, this server
 * claims an edu device from "pci", then sends every kernel label, with every bit set in the
 * words, to init, to the console and to pci, as calls with and without a capability, and
 * answers a call of its own with a kernel label. Every attempt must fail with TACET_EINVAL,
 * and afterwards each target must be unaffected: the console still writes, pci still holds
 * the claim (a forged "driver ended" would have released it), and init has not powered off
 * (a forged "every server ended" would have made it). Then it asks init to power off with
 * status 0, which its entry allows (`^`). Start it with
 * `init.run=^uart=console:ns16550a,pci:...,^forger` and `-device edu`.
 */
#include <stdio.h>
#include <tacet.h>
#include <tacet/console_proto.h>
#include <tacet/pci_proto.h>
#include "../bench/bench.h"
#include "../edu/edu_dev.h"

#define SLOT_CONSOLE  (EDU_SLOT_FREE + 0)
#define SLOT_EP       (EDU_SLOT_FREE + 1) /* an endpoint of its own, for the reply check */
#define SLOT_STACK    (EDU_SLOT_FREE + 2)
#define SLOT_BOUND    (EDU_SLOT_FREE + 5) /* bound to this thread: a kernel NOTIFY's source */
#define STACK_VA      0x0000002100000000ul
#define ALL_BITS      (~0ul >> 1)

static int failures;

static void check(const char *what, int ok)
{
	printf("forger: %s: %s\n", what, ok ? "PASS" : "FAIL");
	failures += !ok;
}

/* Every kernel label to ep, plain and with a capability (our own process): how many calls did
 * not fail with EINVAL. */
static unsigned long forge_all(unsigned long ep)
{
	unsigned long wrong = 0;

	for (unsigned long label = TACET_LABEL_KERNEL; label <= 0xffff; label++) {
		struct tacet_msg m = { .tag = TACET_TAG(label, 4),
				       .w = { ALL_BITS, ALL_BITS, ALL_BITS, ALL_BITS } };
		struct tacet_msg c = { .tag = TACET_TAG_CAP(label, 4, TACET_CHILD_SELF),
				       .w = { ALL_BITS, ALL_BITS, ALL_BITS, ALL_BITS } };

		wrong += tacet_call(ep, &m) != -TACET_EINVAL;
		wrong += tacet_call(ep, &c) != -TACET_EINVAL;
	}
	return wrong;
}

static void forge(const char *target, unsigned long ep)
{
	char what[80];

	snprintf(what, sizeof(what), "%s: %u kernel labels x2 refused with EINVAL", target,
		 0x10000u - TACET_LABEL_KERNEL);
	check(what, forge_all(ep) == 0);
}

/* The caller thread: one call on our own endpoint, whose reply first tries a kernel label. */
static void caller(unsigned long arg)
{
	struct tacet_msg m = { .tag = TACET_TAG(1, 0) };

	(void)arg;
	tacet_call(SLOT_EP, &m);
}

static void forge_reply(void)
{
	struct tacet_msg m, r = { .tag = TACET_TAG(TACET_LABEL_NOTIFY, 1), .w = { ALL_BITS } };
	long err = tacet_endpoint_new(SLOT_EP);

	if (!err)
		err = tacet_ntfn_new(SLOT_BOUND);
	if (!err)
		err = tacet_ntfn_bind(SLOT_BOUND);
	if (!err)
		err = bench_thread_start(caller, 0, 100, 0, SLOT_STACK, STACK_VA);
	tacet_yield(); /* the caller (same priority, same hart) runs and queues its call */
	/* with a sender queued, pending notification bits still come first (a queue that callers
	 * keep full must not starve a server's notifications) */
	tacet_signal(SLOT_BOUND, 0x5);
	if (!err)
		err = tacet_recv(SLOT_EP, 0, &m, NULL);
	check("a bound notification's bits come before a queued call",
	      !err && TACET_TAG_LABEL(m.tag) == TACET_LABEL_NOTIFY && m.w[0] == 0x5);
	if (!err)
		err = tacet_recv(SLOT_EP, 0, &m, NULL);
	check("then the call", !err && TACET_TAG_LABEL(m.tag) == 1);
	check("a reply with TACET_LABEL_NOTIFY is refused with EINVAL",
	      !err && tacet_reply(&r) == -TACET_EINVAL);
	r.tag = TACET_TAG(TACET_LABEL_FAULT, 0);
	check("a reply with TACET_LABEL_FAULT is refused with EINVAL",
	      tacet_reply(&r) == -TACET_EINVAL);
	r.tag = TACET_TAG(0, 0);
	check("the caller still gets a plain reply", tacet_reply(&r) == 0);
}

/* Until the console has sent everything it was given to the UART (CONSOLE_SYNC): this server
 * prints through the kernel's debug output, and a line of it printed while the console is
 * still sending its own text would be cut into that text, or the text into it. */
static void console_sync(void)
{
	struct tacet_msg m = { .tag = TACET_TAG(CONSOLE_SYNC, 0) };

	tacet_call(SLOT_CONSOLE, &m);
}

/* The PCI claim of edu device 0, as a second driver would make it. */
static long claim_again(void)
{
	struct tacet_pci_device dev;

	return tacet_pci_claim(EDU_SLOT_PCI, 0x1234, 0x11e8, 0, SLOT_STACK + 1, &dev);
}

int main(void)
{
	struct edu e;
	struct tacet_msg w = { .tag = TACET_TAG(CONSOLE_WRITE, 4), .w = { 0 } };
	long err;

	if (edu_open(&e, 1) < 0)
		return 1;
	err = tacet_lookup("console", SLOT_CONSOLE, 10000);
	if (!err)
		console_sync(); /* its prompt is out */
	check("looked up \"console\"", err == 0);
	forge("init", TACET_CHILD_INIT);
	forge("console", SLOT_CONSOLE);
	forge("pci", EDU_SLOT_PCI);
	forge_reply();

	__builtin_memcpy(w.w, "forger: console still writes\n", 29);
	err = tacet_call(SLOT_CONSOLE, &w);
	console_sync(); /* that line is out before the next */
	check("the console still answers a write", !err && w.w[0] == 29);
	err = claim_again();
	check("pci still holds the claim (a second claim is EBUSY)", err == -TACET_EBUSY);
	e.regs[EDU_IRQ_RAISE] = EDU_IRQ_BIT; /* the device and its line still work */
	err = tacet_wait(EDU_SLOT_NTFN);
	e.regs[EDU_IRQ_ACK] = EDU_IRQ_BIT;
	check("the edu interrupt still arrives", err == 1 && tacet_irq_ack(EDU_SLOT_IRQ, 1) == 0);
	printf("forger: %s\n", failures ? "some checks failed" : "all checks passed");
	/* init is still here to be asked: it did not power off on a forged "all ended" */
	tacet_poweroff(failures != 0);
	return 1; /* not reached: init powers off (init.run= gives forger `^`) */
}
