/* pcibad: a driver's PCI_BAR and PCI_CONFIG calls with bad arguments (servers/pci). Claims the
 * edu device, then asks for a BAR index past the six, a BAR the function does not have, a
 * configuration word past the function's 4 KiB and one not 4-aligned, and both calls for a
 * function that does not exist: each refused with its error code, nothing in the slot; then
 * BAR0 and the word at 0 (edu's IDs) answered. Prints `pcibad: N checks, F failed` and powers
 * the machine off with status F. Start it with `init.run=pci:...,pcibad` and `-device edu`. No IPC protocol of its own.
 */
#include <stdio.h>
#include <tacet.h>
#include <tacet/init_proto.h>
#include <tacet/pci_proto.h>

#define EDU_VENDOR  0x1234
#define EDU_DEVICE  0x11e8
#define LOOKUP_TRIES 10000 /* 1 ms apart */

enum { SLOT_PCI = TACET_CHILD_FIRST_FREE, SLOT_BAR0, SLOT_FRAME };

static unsigned int checks, failures;

static void check(const char *what, long got, long want)
{
	checks++;
	failures += got != want;
	printf("pcibad: %s: %s (%s)\n", what, got == want ? "PASS" : "FAIL", tacet_strerror(got));
}

/* A PCI_BAR that must be refused with want, and leave SLOT_FRAME empty. */
static void bar_refused(const char *what, unsigned long device, unsigned long bar, long want)
{
	uint64_t size = 0;
	long err = tacet_pci_bar(SLOT_PCI, EDU_VENDOR, device, 0, bar, SLOT_FRAME, &size);

	check(what, err == want && tacet_cap_info(SLOT_FRAME, NULL, NULL) == -TACET_EEMPTY
			    ? want : (err ? err : -TACET_EEXIST), want);
}

int main(void)
{
	struct tacet_pci_device dev;
	uint64_t v = 0, size = 0;
	long err = tacet_lookup("pci", SLOT_PCI, LOOKUP_TRIES);

	if (!err)
		err = tacet_pci_claim(SLOT_PCI, EDU_VENDOR, EDU_DEVICE, 0, SLOT_BAR0, &dev);
	if (err) {
		printf("pcibad: cannot claim the edu device: %s: FAIL\n", tacet_strerror(err));
		return 1;
	}
	bar_refused("PCI_BAR 6 (past the six) -> EINVAL", EDU_DEVICE, 6, -TACET_EINVAL);
	bar_refused("PCI_BAR 1 (edu has BAR0 alone) -> ENOENT", EDU_DEVICE, 1, -TACET_ENOENT);
	bar_refused("PCI_BAR of a function that does not exist -> ENOENT", 0x1111, 0,
		    -TACET_ENOENT);
	check("PCI_CONFIG at 4096 (past the function's page) -> EINVAL",
	      tacet_pci_config(SLOT_PCI, EDU_VENDOR, EDU_DEVICE, 0, 4096, &v), -TACET_EINVAL);
	check("PCI_CONFIG at 2 (not 4-aligned) -> EINVAL",
	      tacet_pci_config(SLOT_PCI, EDU_VENDOR, EDU_DEVICE, 0, 2, &v), -TACET_EINVAL);
	check("PCI_CONFIG of a function that does not exist -> ENOENT",
	      tacet_pci_config(SLOT_PCI, EDU_VENDOR, 0x1111, 0, 0, &v), -TACET_ENOENT);
	err = tacet_pci_bar(SLOT_PCI, EDU_VENDOR, EDU_DEVICE, 0, 0, SLOT_FRAME, &size);
	check("then PCI_BAR 0 answers with its 1 MiB", err ? err : size == 0x100000 ? 0 : -1, 0);
	err = tacet_pci_config(SLOT_PCI, EDU_VENDOR, EDU_DEVICE, 0, 0, &v);
	check("and PCI_CONFIG at 0 with edu's IDs", err ? err : v == 0x11e81234 ? 0 : -1, 0);
	printf("pcibad: %u checks, %u failed\n", checks, failures);
	tacet_poweroff((int)failures); /* the pci server never ends: the machine is done */
	return (int)failures;
}
