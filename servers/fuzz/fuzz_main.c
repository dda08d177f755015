/* fuzz_main.c: the fuzz server (tests/qemu/cases_fuzz.py): FUZZ_CALLS calls (fuzz.c), then the
 * report and the round trip through init; exits 0 when that worked. */
#include <tacet.h>
#include "fuzz.h"

#define FUZZ_CALLS 100000

int main(void)
{
	unsigned long id = tacet_start_arg;

	if (fuzz_start(id))
		return 1;
	fuzz(FUZZ_CALLS);
	return fuzz_finish(id, FUZZ_CALLS) ? 1 : 0;
}
