/* msibad: the message-signalled lines' calls (IRQ_MSI_NEW, IRQ_MSI_FREE, and IRQ_BIND and
 * IRQ_SET_AFFINITY on such a line) with bad arguments get their error codes, the pool runs out
 * with -TACET_ENOMEM, and a freed line is lent again. Started as `msibad:pci-mmio32` (the PCI
 * bus window, with TACET_RIGHT_RELEASE: the authority, in TACET_CHILD_DEVICE), with no pci
 * server. On a machine without an MSI controller (the PLIC's) every lending answers
 * -TACET_ENODEV. Prints `msibad: WHAT -> ERROR: PASS` per check, then `msibad: N checks, N
 * failed`. No IPC protocol. */
#include <stdio.h>
#include <tacet.h>
#include <tacet/init_proto.h>

#define BUS          TACET_CHILD_DEVICE
#define SLOT_NTFN    (TACET_CHILD_FIRST_FREE + 0)
#define SLOT_BUS_RW  (TACET_CHILD_FIRST_FREE + 1) /* the window without RELEASE */
#define SLOT_RAM     (TACET_CHILD_FIRST_FREE + 2) /* RAM, every right */
#define SLOT_EMPTY   (TACET_CHILD_FIRST_FREE + 3)
#define SLOT_LINES   (TACET_CHILD_FIRST_FREE + 4) /* the lent lines from here on */
#define MAX_LINES    80 /* more than the pool holds: our slots to TACET_CHILD_DEVICE_SLOTS, then lib's */
#define NO_SUCH_HART 99

static unsigned int checks, failed;

static void expect(const char *what, long got, long want)
{
	checks++;
	if (got == want) {
		printf("msibad: %s -> %s: PASS\n", what, want ? tacet_strerror(want) : "0");
		return;
	}
	failed++;
	printf("msibad: %s -> %s, expected %s: FAIL\n", what, got ? tacet_strerror(got) : "0",
	       want ? tacet_strerror(want) : "0");
}

static long lend(unsigned long bus, unsigned long hart, unsigned long dst)
{
	uint64_t addr;
	uint32_t data;
	unsigned long line;

	return tacet_irq_msi_new(bus, hart, dst, &addr, &data, &line);
}

static void refused(void)
{
	expect("lend with an empty bus slot", lend(SLOT_EMPTY, 0, SLOT_LINES), -TACET_EEMPTY);
	expect("lend with a notification as bus", lend(SLOT_NTFN, 0, SLOT_LINES), -TACET_ETYPE);
	expect("lend with the window without RELEASE", lend(SLOT_BUS_RW, 0, SLOT_LINES),
	       -TACET_EPERM);
	expect("lend with a RAM frame", lend(SLOT_RAM, 0, SLOT_LINES), -TACET_EPERM);
}

static unsigned long lines[MAX_LINES]; /* the slots exhaust() lent into */

/* Every line of the pool lent, until -TACET_ENOMEM; returns how many. */
static unsigned long exhaust(void)
{
	unsigned long n = 0;
	long err = 0, slot;

	for (; n < MAX_LINES; n++) {
		slot = SLOT_LINES + n < TACET_CHILD_DEVICE_SLOTS ? (long)(SLOT_LINES + n)
								 : tacet_slot_alloc();
		if (slot < 0 || (err = lend(BUS, 0, (unsigned long)(lines[n] = (unsigned long)slot))))
			break;
	}
	expect("lend once the pool is empty", slot < 0 ? slot : err, -TACET_ENOMEM);
	return n;
}

static void with_msi(void)
{
	uint64_t addr = 0, moved = 0;
	uint32_t data = 0;
	unsigned long line = 0, n, again = 0;

	expect("lend on hart 99", lend(BUS, NO_SUCH_HART, SLOT_LINES), -TACET_EINVAL);
	expect("lend into a full slot", lend(BUS, 0, SLOT_NTFN), -TACET_EEXIST);
	expect("lend", tacet_irq_msi_new(BUS, 1, SLOT_LINES, &addr, &data, &line), 0);
	printf("msibad: line %lu: write %#x to %#lx\n", line, data, (unsigned long)addr);
	expect("its number (CAP_INFO) is the one lent", tacet_irq_line(SLOT_LINES), (long)line);
	expect("bind it shared", tacet_irq_bind(SLOT_LINES, SLOT_NTFN, 1, TACET_IRQ_SHARED),
	       -TACET_EINVAL);
	expect("bind it", tacet_irq_bind(SLOT_LINES, SLOT_NTFN, 1, 0), 0);
	/* each hart's file is a page of the IMSIC's, at its index (the hart's order in the tree,
	 * not its logical number: the boot hart is 0) */
	expect("move it to hart 0", tacet_irq_msi_move(SLOT_LINES, 0, &moved), 0);
	expect("the new address is another page of the IMSIC's",
	       moved != addr && (moved - addr) % TACET_PAGE_SIZE == 0 ? 0 : -TACET_EINVAL, 0);
	expect("move it back to hart 1", tacet_irq_msi_move(SLOT_LINES, 1, &moved), 0);
	expect("the address is hart 1's file again", moved == addr ? 0 : -TACET_EINVAL, 0);
	expect("move it to hart 99", tacet_irq_msi_move(SLOT_LINES, NO_SUCH_HART, &moved),
	       -TACET_EINVAL);
	expect("free it with the window without RELEASE", tacet_irq_msi_free(SLOT_BUS_RW, SLOT_LINES),
	       -TACET_EPERM);
	expect("free a notification", tacet_irq_msi_free(BUS, SLOT_NTFN), -TACET_ETYPE);
	expect("free it (bound: its binder leaves)", tacet_irq_msi_free(BUS, SLOT_LINES), 0);
	expect("free it twice", tacet_irq_msi_free(BUS, SLOT_LINES), -TACET_EINVAL);
	expect("bind it, freed", tacet_irq_bind(SLOT_LINES, SLOT_NTFN, 1, 0), -TACET_EINVAL);
	expect("move it, freed", tacet_irq_msi_move(SLOT_LINES, 0, &moved), -TACET_EINVAL);
	expect("ack it, freed", tacet_irq_ack(SLOT_LINES, 1), -TACET_EINVAL);
	tacet_cap_delete(SLOT_LINES);
	n = exhaust();
	printf("msibad: %lu lines lent before the pool ran out\n", n);
	for (unsigned long i = 0; i < n; i++)
		tacet_irq_msi_free(BUS, lines[i]), tacet_cap_delete(lines[i]);
	expect("lend again once every line is back", tacet_irq_msi_new(BUS, 1, SLOT_LINES, &addr,
								       &data, &again), 0);
	expect("the first line is lent again", again == line ? 0 : -TACET_EINVAL, 0);
}

int main(void)
{
	long err = tacet_ntfn_new(SLOT_NTFN);

	if (!err)
		err = tacet_cap_copy(BUS, SLOT_BUS_RW, TACET_RIGHT_READ | TACET_RIGHT_WRITE, 0);
	if (!err)
		err = tacet_frame_new(SLOT_RAM, 1);
	if (err) {
		printf("msibad: cannot start: %s: FAIL\n", tacet_strerror(err));
		return 1;
	}
	refused();
	err = lend(BUS, 0, SLOT_LINES);
	if (err == -TACET_ENODEV)
		expect("lend without an MSI controller", err, -TACET_ENODEV);
	else if (!err && !tacet_irq_msi_free(BUS, SLOT_LINES) && !tacet_cap_delete(SLOT_LINES))
		with_msi();
	else
		expect("lend", err, 0);
	printf("msibad: %u checks, %u failed\n", checks, failed);
	return failed ? 1 : 0;
}
