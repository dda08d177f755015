/* squatter: a hostile server that tries to take the name "console" while the console server is
 * crashed and restarted (the restart test): for SQUAT_MS it publishes an endpoint of its own as
 * "console", one call right after the other (the restart's gap is a few milliseconds). A name belongs to the server that published it first, so
 * every try must fail, in the gap of the restart too; otherwise the shell's and every client's
 * next lookup would reach the squatter. It starts once the console has published the name (a
 * name nobody has published yet is anyone's). Ends with `squatter: N tries, 0 took the name:
 * PASS`.
 */
#include <stdio.h>
#include <tacet.h>
#include <tacet/init_proto.h>

#define SQUAT_MS     2000

enum { SLOT_EP = TACET_CHILD_FIRST_FREE, SLOT_CONSOLE };

int main(void)
{
	unsigned int tries = 0, took = 0;
	long err = tacet_lookup("console", SLOT_CONSOLE, 10000);

	if (!err)
		err = tacet_endpoint_new(SLOT_EP);
	if (err) {
		printf("squatter: cannot start: %s: FAIL\n", tacet_strerror(err));
		return 1;
	}
	for (unsigned long end = tacet_time() + tacet_ns_to_ticks(SQUAT_MS * 1000000ull); tacet_time() < end;) {
		err = tacet_publish("console", SLOT_EP, TACET_RIGHT_WRITE);
		tries++;
		took += err != -TACET_EEXIST;
	}
	printf("squatter: %u tries, %u took the name: %s\n", tries, took, took ? "FAIL" : "PASS");
	return took != 0;
}
