/* thief: a hostile server that tries to get more than least privilege gives it (isolation).
 *
 * With nothing but what init gives any server, it looks up "console" and "pci" and tries to
 * receive on them (were a lookup to give every right, a server receiving on "pci" would take
 * another driver's claim with that driver's whole process capability in it); widens
 * its copies; publishes with READ; waits until an edu driver has claimed the edu device and
 * asks pci for that device's interrupt, bus mastering, a BAR, a configuration read and the
 * device itself; offers pci its whole process capability. Every attempt must be refused, and at the end the only process capability it
 * holds is its own and none of its endpoints or notifications can receive. The edu driver
 * beside it must finish its 1000 interrupts undisturbed.
 * Start it with `init.run=^uart=console:ns16550a,pci:...,edu@1,thief@2` and `-device edu`.
 */
#include <stdio.h>
#include <tacet.h>
#include <tacet/init_proto.h>
#include <tacet/pci_proto.h>

enum {
	SLOT_CONSOLE = TACET_CHILD_FIRST_FREE,
	SLOT_PCI,
	SLOT_COPY,  /* a widened copy */
	SLOT_TAKE,  /* where a stolen capability would land */
	SLOT_SELF0, /* a rights-less copy of our process */
	SLOT_NTFN,  /* for pauses */
};

#define EDU_VENDOR 0x1234
#define EDU_DEVICE 0x11e8
#define WAIT_TRIES 10000   /* 1 ms apart */
#define PAUSE_NS 1000000ull /* 1 ms */

static int failures;

static void check(const char *what, int ok)
{
	printf("thief: %s: %s\n", what, ok ? "PASS" : "FAIL");
	failures += !ok;
}

/* Receiving on a looked-up capability, and on a copy asking for every right, is refused. */
static void try_receive(const char *name, unsigned long slot)
{
	struct tacet_msg m = { .tag = TACET_TAG(0, 0) };
	unsigned long rights = 0;
	char what[96];

	tacet_cap_info(slot, &rights, NULL);
	snprintf(what, sizeof(what), "\"%s\" comes without READ (rights %#lx)", name, rights);
	check(what, rights && !(rights & TACET_RIGHT_READ));
	snprintf(what, sizeof(what), "receive on \"%s\" -> EPERM", name);
	check(what, tacet_recv(slot, 0, &m, NULL) == -TACET_EPERM);
	snprintf(what, sizeof(what), "reply_recv on \"%s\" -> EPERM", name);
	check(what, tacet_reply_recv(slot, &m, 0, &m, NULL) == -TACET_EPERM);
	tacet_cap_copy(slot, SLOT_COPY, TACET_RIGHTS_ALL, 0);
	tacet_cap_info(SLOT_COPY, &rights, NULL);
	snprintf(what, sizeof(what), "a copy of \"%s\" asking for all rights gets no READ", name);
	check(what, !(rights & TACET_RIGHT_READ) &&
		    tacet_recv(SLOT_COPY, 0, &m, NULL) == -TACET_EPERM);
	tacet_cap_delete(SLOT_COPY);
}

static void pause_ms(void)
{
	tacet_timer_set(SLOT_NTFN, 1, tacet_time() + tacet_ns_to_ticks(PAUSE_NS));
	tacet_wait(SLOT_NTFN);
}

/* Wait until some PCI interrupt line (32 and up on QEMU virt) has a binder: the edu driver. */
static int edu_driver_bound(void)
{
	struct tacet_irq_info info;

	for (unsigned int tries = 0; tries < WAIT_TRIES; tries++, pause_ms())
		for (unsigned long i = 32; tacet_info(TACET_INFO_IRQ, i, &info, sizeof(info)) > 0; i++)
			if (info.bound)
				return 1;
	return 0;
}

/* A raw PCI call for edu device 0 whose reply may carry a capability into SLOT_TAKE. */
static long pci_call(unsigned long tag, struct tacet_msg *m)
{
	long err;

	*m = (struct tacet_msg){ .tag = tag, .w = { EDU_VENDOR, EDU_DEVICE, 0 } };
	err = tacet_call_cap(SLOT_PCI, m, SLOT_TAKE);
	return err ? err : (long)m->w[0];
}

static void try_pci(void)
{
	struct tacet_msg m;
	long err;

	err = pci_call(TACET_TAG(PCI_IRQ, 3), &m);
	check("PCI_IRQ for the device another driver claimed -> EPERM, nothing sent",
	      err == -TACET_EPERM && !TACET_TAG_HAS_CAP(m.tag) &&
		      tacet_cap_info(SLOT_TAKE, NULL, NULL) == -TACET_EEMPTY);
	err = pci_call(TACET_TAG(PCI_MASTER, 3), &m);
	check("PCI_MASTER for the device another driver claimed -> EPERM", err == -TACET_EPERM);
	err = pci_call(TACET_TAG(PCI_BAR, 4), &m); /* BAR0 */
	check("PCI_BAR for the device another driver claimed -> EPERM, nothing sent",
	      err == -TACET_EPERM && !TACET_TAG_HAS_CAP(m.tag) &&
		      tacet_cap_info(SLOT_TAKE, NULL, NULL) == -TACET_EEMPTY);
	err = pci_call(TACET_TAG(PCI_CONFIG, 4), &m); /* its vendor and device ID */
	check("PCI_CONFIG for the device another driver claimed -> EPERM", err == -TACET_EPERM);
	tacet_cap_copy(TACET_CHILD_SELF, SLOT_SELF0, 0, 0);
	err = pci_call(TACET_TAG_CAP(PCI_CLAIM, 3, SLOT_SELF0), &m);
	check("PCI_CLAIM of that device -> EBUSY", err == -TACET_EBUSY);
	err = pci_call(TACET_TAG_CAP(PCI_CLAIM, 3, TACET_CHILD_SELF), &m);
	check("pci refuses a process capability with rights (EPERM)", err == -TACET_EPERM);
	err = pci_call(TACET_TAG(PCI_CLAIM, 3), &m);
	check("PCI_CLAIM without a process capability -> EPERM", err == -TACET_EPERM);
	tacet_cap_delete(SLOT_SELF0);
	tacet_cap_delete(SLOT_TAKE);
}

/* What it holds in the end: one process capability (its own), nothing that can receive. */
static void inventory(void)
{
	unsigned int processes = 0, receivers = 0;

	for (unsigned long slot = 1; slot < 128; slot++) {
		unsigned long rights = 0;
		long type = tacet_cap_info(slot, &rights, NULL);

		processes += type == TACET_CAP_PROCESS;
		receivers += slot != SLOT_NTFN && (type == TACET_CAP_ENDPOINT ||
						   type == TACET_CAP_NOTIFICATION) &&
			     (rights & TACET_RIGHT_READ);
	}
	check("it holds one process capability (its own) and nothing that receives",
	      processes == 1 && tacet_cap_info(TACET_CHILD_SELF, NULL, NULL) == TACET_CAP_PROCESS &&
		      receivers == 0);
}

int main(void)
{
	long err = tacet_ntfn_new(SLOT_NTFN);

	if (!err)
		err = tacet_lookup("console", SLOT_CONSOLE, WAIT_TRIES);
	if (!err)
		err = tacet_lookup("pci", SLOT_PCI, WAIT_TRIES);
	if (err) {
		printf("thief: cannot look up: %s: FAIL\n", tacet_strerror(err));
		return 1;
	}
	try_receive("console", SLOT_CONSOLE);
	try_receive("pci", SLOT_PCI);
	tacet_endpoint_new(SLOT_COPY);
	check("publishing with READ for clients -> EINVAL",
	      tacet_publish("thief", SLOT_COPY, TACET_RIGHTS_ALL) == -TACET_EINVAL);
	tacet_cap_delete(SLOT_COPY);
	check("an edu driver has bound its line", edu_driver_bound());
	try_pci();
	inventory();
	printf("thief: %s\n", failures ? "some checks failed" : "all checks passed");
	return failures != 0;
}
