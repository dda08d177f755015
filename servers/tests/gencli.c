/* gencli: a client of gensvc across its restart (a service's generations): it learns the instance
 * it reached at the lookup, watches the service's endpoint (ENDPOINT_WATCH) with a
 * notification, calls, then waits on it: the first instance dies after its answer, and the
 * watch's badge says so (without the watch the wait would never end); a second watch of the
 * ended endpoint is refused (EDEAD), and so is the next call; it reconnects, and learns that
 * it now talks to a new instance, which answers with the same number. */
#include <stdio.h>
#include <tacet.h>
#include <tacet/init_proto.h>
#include <tacet/driver.h>

#define SLOT_SVC  TACET_CHILD_FIRST_FREE
#define SLOT_NTFN (TACET_CHILD_FIRST_FREE + 1)
#define GONE      4ul

static long ask(unsigned long *said)
{
	struct tacet_msg msg = { .tag = TACET_TAG(1, 0) };
	long err = tacet_call(SLOT_SVC, &msg);

	*said = msg.w[0];
	return err;
}

int main(void)
{
	unsigned long found = 99, said = 99, again = 99;
	long err = tacet_lookup_instance("gensvc", SLOT_SVC, 10000, &found);

	/* the watch first: the instance dies right after its answer */
	if (!err)
		err = tacet_ntfn_new(SLOT_NTFN);
	if (!err)
		err = tacet_endpoint_watch(SLOT_SVC, SLOT_NTFN, GONE);
	if (!err)
		err = ask(&said);
	printf("gencli: looked up instance %lu, which answers %lu: %s\n", found, said,
	       !err && found == 0 && said == 0 ? "PASS" : "FAIL");
	err = err ? err : tacet_wait(SLOT_NTFN);
	printf("gencli: the watch of its endpoint said %#lx: %s\n", (unsigned long)err,
	       err == (long)GONE ? "PASS" : "FAIL");
	err = tacet_endpoint_watch(SLOT_SVC, SLOT_NTFN, GONE);
	printf("gencli: a watch of the ended endpoint: %s\n", tacet_strerror(err));
	err = ask(&said);
	printf("gencli: the next call: %s\n", tacet_strerror(err));
	/* until the name reaches a live instance: right after the death, init may not have
	 * withdrawn the dead one's name yet (its calls then say EDEAD too) */
	for (int tries = 0; err == -TACET_EDEAD && tries < 1000; tries++) {
		err = tacet_reconnect_instance("gensvc", SLOT_SVC, 10000, &again);
		if (!err)
			err = ask(&said);
		if (err == -TACET_EDEAD)
			tacet_sleep_ns(1000000);
	}
	printf("gencli: reconnected to instance %lu, which answers %lu: %s\n", again, said,
	       !err && again == 1 && said == 1 ? "PASS" : "FAIL");
	return 0;
}
