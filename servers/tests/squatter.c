/* squatter: a hostile server that tries to take the name "console" while the console server is
 * crashed and restarted (the restart test): for SQUAT_MS it publishes an endpoint of its own as
 * "console", one call right after the other (the restart's gap is a few milliseconds).
 * init.run= grants "console" to the console server alone, for all its instances, so every try
 * must be refused with EPERM, in the gap of the restart too; otherwise the shell's and every
 * client's next lookup would reach the squatter. It starts once the console has published the
 * name. Ends with `squatter: N tries, 0 took the name, each refused with EPERM: PASS` (a name
 * granted to another is not the squatter's, never "taken already": a refusal other than EPERM
 * fails too).
 */
#include <stdio.h>
#include <tacet.h>
#include <tacet/init_proto.h>

#define SQUAT_MS     2000

enum { SLOT_EP = TACET_CHILD_FIRST_FREE, SLOT_CONSOLE };

int main(void)
{
	unsigned int tries = 0, took = 0, other = 0; /* other: refused, but not with EPERM */
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
		took += err == 0;
		other += err && err != -TACET_EPERM;
	}
	if (took || other)
		printf("squatter: %u tries, %u took the name, %u refused but not with EPERM: FAIL\n",
		       tries, took, other);
	else
		printf("squatter: %u tries, 0 took the name, each refused with EPERM: PASS\n", tries);
	return took || other;
}
