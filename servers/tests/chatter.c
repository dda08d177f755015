/* chatter: a client of the console that keeps writing while the console server is crashed and
 * restarted (the restart test): CHATTER_LINES lines through printf (lib's console client), one
 * every CHATTER_PAUSE_MS. A write the dead server could not take comes back TACET_EDEAD; lib
 * looks "console" up again and writes on to the restarted server, so no printf fails. Ends with
 * `chatter: N lines, F failed: PASS` (F must be 0).
 */
#include <stdio.h>
#include <tacet.h>
#include <tacet/init_proto.h>

#define CHATTER_LINES    300
#define CHATTER_PAUSE_MS 5
#define SLOT_SLEEP       TACET_CHILD_FIRST_FREE

int main(void)
{
	unsigned int failed = 0;
	long err = tacet_console_attach(10000);

	if (!err)
		err = tacet_ntfn_new(SLOT_SLEEP);
	if (err) {
		printf("chatter: cannot start: %s: FAIL\n", tacet_strerror(err));
		return 1;
	}
	for (unsigned int i = 0; i < CHATTER_LINES; i++) {
		failed += printf("chatter: line %u\n", i) < 0;
		failed += fflush(stdout) != 0;
		tacet_timer_set(SLOT_SLEEP, 1, tacet_time() + tacet_ns_to_ticks(CHATTER_PAUSE_MS * 1000000ull));
		tacet_wait(SLOT_SLEEP);
	}
	printf("chatter: %d lines, %u failed: %s\n", CHATTER_LINES, failed, failed ? "FAIL" : "PASS");
	/* out to the UART before this process ends: init's "server chatter finished", printed
	 * straight to the kernel's output, must not cut into it */
	tacet_console_sync();
	return failed != 0;
}
