/* injectpci: the faults kernel's injector takes the PCI bus server for a driver (it maps the
 * bus's configuration space, a device's registers, though it binds no interrupt line) and still
 * refuses a server that neither binds a line nor maps a device; then a fault into pci is
 * survived by the driver behind it. Started as `^%injectpci@1` beside pci (`~1000`: asked
 * whether it is alive), rng over virtio-rng-pci and ipc_server (a server with no device).
 * Prints `injectpci: WHAT: PASS` per check: a probe into pci's thread accepted (nothing
 * changed), one into ipc_server's refused (EPERM), pci's stack pointer flipped (it faults at
 * its next call, init restarts it; rng, whose claim was that instance's, ends and is
 * restarted), then a read of rng answered by its next instance; then `injectpci: N checks, N
 * failed` and powers off. No IPC protocol. */
#include <stdio.h>
#include <tacet.h>
#include <tacet/random.h>
#include "../faults/target.h"

#define SP_BIT 40 /* far outside the stack: the next store faults */
#define TRIES 1000
#define WAIT_MS 10000 /* for rng's next instance */

static unsigned int checks, failed;

static void expect(const char *what, long got, long want)
{
	checks++;
	failed += got != want;
	printf("injectpci: %s -> %s%s%s: %s\n", what, got ? tacet_strerror(got) : "0",
	       got != want ? ", expected " : "",
	       got == want ? "" : want ? tacet_strerror(want) : "0", got == want ? "PASS" : "FAIL");
}

static void expect_true(const char *what, int ok)
{
	checks++;
	failed += !ok;
	printf("injectpci: %s: %s\n", what, ok ? "PASS" : "FAIL");
}

/* 16 bytes from the entropy service, whatever instance answers. */
static int read_ok(void)
{
	unsigned char buf[16];
	long r = tacet_random(buf, sizeof(buf));

	if (r != sizeof(buf))
		printf("injectpci: a read of rng: %s\n", tacet_strerror(r));
	return r == sizeof(buf);
}

/* rng's thread once it is another than `old` (its restart); 0 if none within WAIT_MS. */
static unsigned int next_rng(unsigned int old)
{
	unsigned int tid = target_thread("rng");

	for (unsigned int ms = 0; ms < WAIT_MS && (!tid || tid == old); ms++) {
		tacet_sleep_ns(1000000);
		tid = target_thread("rng");
	}
	return tid == old ? 0 : tid;
}

int main(void)
{
	unsigned int pci = target_thread("pci"), rng, other = target_thread("ipc_server");
	long r;

	expect_true("a first read of rng over virtio-pci", read_ok());
	rng = target_thread("rng");
	r = target_inject(TACET_INJECT_DATA | TACET_INJECT_PROBE, pci, 0, 0, TRIES);
	expect("a probe into pci's thread (the ECAM mapped, no line bound)", r < 0 ? r : 0, 0);
	expect("a probe into ipc_server's thread (no line, no device)",
	       target_inject(TACET_INJECT_DATA | TACET_INJECT_PROBE, other, 0, 0, TRIES),
	       -TACET_EPERM);
	r = target_inject(TACET_INJECT_REG, pci, 2, SP_BIT, TRIES);
	expect_true("pci's sp, bit 40, flipped", r == 2);
	rng = next_rng(rng);
	expect_true("rng ended with the pci instance and came back", rng != 0);
	expect_true("a read after pci's fault: answered by rng's next instance",
		    read_ok() && target_thread("rng") == rng);
	printf("injectpci: %u checks, %u failed\n", checks, failed);
	tacet_poweroff(failed != 0);
	return 0;
}
