/* returnmany: main returns while 200 other threads of its process wait: exit(), and
 * so a return from main, ends the whole process (TACET_SYS_PROCESS_EXIT), as in POSIX; a thread
 * that should end alone calls tacet_exit. The case checks that the process ends and init's leak
 * check finds every page and object back. */
#include <stdio.h>
#include <tacet.h>
#include <tacet/init_proto.h>
#include "waiters.h"

int main(void)
{
	long err = waiters_start(TACET_CHILD_FIRST_FREE);

	if (err) {
		printf("returnmany: FAIL: set-up: %s\n", tacet_strerror(err));
		return 1;
	}
	printf("returnmany: %d threads wait; main returns\n", WAITERS);
	return 0;
}
