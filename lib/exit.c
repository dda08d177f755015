/* exit.c: _exit(), where picolibc's exit() and abort() end (and so a return from main). A
 * server started by init first tells init its status (INIT_EXIT on TACET_CHILD_INIT, see
 * <tacet/init_proto.h>); then the process ends in the kernel, every thread of it, as a POSIX
 * process does (a thread that should end alone calls tacet_exit). */
#include <unistd.h>
#include <tacet.h>
#include <tacet/init_client.h>

void _exit(int status)
{
	/* init itself has its thread in that slot, not an endpoint */
	if (tacet_cap_info(TACET_CHILD_INIT, NULL, NULL) == TACET_CAP_ENDPOINT)
		init_call_exit(TACET_CHILD_INIT, (unsigned long)status);
	tacet_process_exit(status);
}
