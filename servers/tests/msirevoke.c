/* msirevoke: a message-signalled line's freeing revokes every copy of its capability. It lends a
 * line (IRQ_MSI_NEW), sends a copy of the capability to another process (msistale, which binds
 * it), frees the line, and has msistale call through its copy (bind, ack, move): each refused;
 * then lends again, gets the same line (the same identity), and has msistale call through the
 * old copy again: still refused, while the new lending's capability binds the line. Started as
 * `msirevoke:pci-mmio32,msistale` (the PCI bus window with TACET_RIGHT_RELEASE, the lending's
 * authority, in TACET_CHILD_DEVICE), on the AIA's machine; on the PLIC's the lending answers
 * -TACET_ENODEV and it says so. Prints `msirevoke: WHAT -> RESULT: PASS` per check, then
 * `msirevoke: N checks, N failed`. Its IPC: msistale's protocol (msistale.c). */
#include <stdio.h>
#include <tacet.h>
#include <tacet/init_proto.h>

#define BUS        TACET_CHILD_DEVICE
#define SLOT_NTFN  (TACET_CHILD_FIRST_FREE + 0)
#define SLOT_STALE (TACET_CHILD_FIRST_FREE + 1) /* msistale's endpoint */
#define SLOT_LINE  (TACET_CHILD_FIRST_FREE + 2) /* the first lending's capability */
#define SLOT_AGAIN (TACET_CHILD_FIRST_FREE + 3) /* the second's */

enum { STALE_KEEP = 1, STALE_TRY = 2, STALE_DONE = 3 };

static unsigned int checks, failed;

static void expect(const char *what, long got, long want)
{
	checks++;
	failed += got != want;
	printf("msirevoke: %s -> %s%s%s: %s\n", what, got ? tacet_strerror(got) : "0",
	       got != want ? ", expected " : "",
	       got != want ? (want ? tacet_strerror(want) : "0") : "", got == want ? "PASS" : "FAIL");
}

/* msistale's label (with our capability in slot when cap is not 0): its three answers. */
static long stale(unsigned long label, unsigned long cap, long out[3])
{
	struct tacet_msg msg = { .tag = cap ? TACET_TAG_CAP(label, 0, cap) : TACET_TAG(label, 0) };
	long err = tacet_call(SLOT_STALE, &msg);

	for (int i = 0; i < 3; i++)
		out[i] = (long)msg.w[i];
	return err;
}

/* msistale calls through its copy: every call refused as for a line free. */
static void copy_refused(const char *when)
{
	long r[3];
	char what[96];

	expect("ask msistale", stale(STALE_TRY, 0, r), 0);
	snprintf(what, sizeof(what), "bind through the copy, %s", when);
	expect(what, r[0], -TACET_EINVAL);
	snprintf(what, sizeof(what), "ack through the copy, %s", when);
	expect(what, r[1], -TACET_EINVAL);
	snprintf(what, sizeof(what), "move through the copy, %s", when);
	expect(what, r[2], -TACET_EINVAL);
}

static void revoke(unsigned long line)
{
	uint64_t addr;
	uint32_t data;
	unsigned long again = 0;
	long r[3];

	expect("send msistale a copy; it binds the line",
	       stale(STALE_KEEP, SLOT_LINE, r) ? -TACET_EDEAD : r[0], 0);
	expect("free the line (msistale bound)", tacet_irq_msi_free(BUS, SLOT_LINE), 0);
	copy_refused("freed");
	expect("lend again", tacet_irq_msi_new(BUS, 0, SLOT_AGAIN, &addr, &data, &again), 0);
	expect("the same line lent again", again == line ? 0 : -TACET_EINVAL, 0);
	copy_refused("lent again");
	expect("bind through the first lending's capability", tacet_irq_bind(SLOT_LINE, SLOT_NTFN,
									      1, 0), -TACET_EINVAL);
	expect("bind through the new lending's", tacet_irq_bind(SLOT_AGAIN, SLOT_NTFN, 1, 0), 0);
	expect("free it", tacet_irq_msi_free(BUS, SLOT_AGAIN), 0);
}

int main(void)
{
	uint64_t addr;
	uint32_t data;
	unsigned long line = 0;
	long r[3], err = tacet_ntfn_new(SLOT_NTFN);

	if (!err)
		err = tacet_lookup("msistale", SLOT_STALE, 10000);
	if (err) {
		printf("msirevoke: cannot start: %s: FAIL\n", tacet_strerror(err));
		return 1;
	}
	err = tacet_irq_msi_new(BUS, 0, SLOT_LINE, &addr, &data, &line);
	if (err == -TACET_ENODEV)
		printf("msirevoke: no MSI controller: nothing to revoke\n");
	else if (!err)
		printf("msirevoke: line %lu lent\n", line), revoke(line);
	else
		expect("lend", err, 0);
	stale(STALE_DONE, 0, r);
	printf("msirevoke: %u checks, %u failed\n", checks, failed);
	return failed ? 1 : 0;
}
