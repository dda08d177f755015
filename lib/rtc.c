/* rtc.c: the client side of the "rtc" service (<tacet/rtc.h>, <tacet/rtc_proto.h>, the stubs
 * generated from lib/proto/rtc.proto): one endpoint capability in a slot of lib's, looked up at
 * the first call and again after the server was restarted, and the session alarms need, opened
 * at the first alarm on each instance. */
#include <tacet.h>
#include <tacet/init_proto.h>
#include <tacet/rtc.h>
#include <tacet/rtc_client.h>

#define RTC_LOOKUP_TRIES    1000 /* 1 ms apart: how long the service may take to appear */
#define RTC_RECONNECT_TRIES 5000 /* how long a restart may take */

static long rtc_slot;
static unsigned long instance; /* the service's instance rtc_slot reaches */
static int session; /* open on the instance rtc_slot reaches */

static long connect(void)
{
	long slot, err;

	if (rtc_slot)
		return 0;
	slot = tacet_slot_alloc();
	if (slot < 0)
		return slot;
	err = tacet_lookup_instance("rtc", (unsigned long)slot, RTC_LOOKUP_TRIES, &instance);
	if (err) {
		tacet_slot_free((unsigned long)slot);
		return err;
	}
	rtc_slot = slot;
	return 0;
}

/* The service's instance ended (a call found it gone): the next one, no session on it yet. */
static int reconnected(long err)
{
	if (err != -TACET_EDEAD ||
	    tacet_reconnect_next("rtc", (unsigned long)rtc_slot, RTC_RECONNECT_TRIES, &instance) != 0)
		return 0;
	session = 0;
	return 1;
}

long tacet_rtc_time(uint64_t *ns)
{
	long err = connect();

	if (!err)
		err = rtc_call_time((unsigned long)rtc_slot, ns);
	if (!err || !reconnected(err))
		return err;
	return rtc_call_time((unsigned long)rtc_slot, ns);
}

/* The session, opened with a watch-only capability to this process (from the scratch slot,
 * emptied right after). */
static long open_session(void)
{
	long err;

	if (session)
		return 0;
	err = tacet_cap_copy(TACET_CHILD_SELF, TACET_CHILD_LIB_SCRATCH, 0, 0);
	if (!err)
		err = rtc_call_open((unsigned long)rtc_slot, TACET_CHILD_LIB_SCRATCH);
	tacet_cap_delete(TACET_CHILD_LIB_SCRATCH);
	session = !err;
	return err;
}

static long alarm(uint64_t at_ns, unsigned long copy, unsigned long bits)
{
	long err = open_session();

	return err ? err : rtc_call_alarm((unsigned long)rtc_slot, at_ns, bits, copy);
}

long tacet_rtc_alarm(uint64_t at_ns, unsigned long ntfn, unsigned long bits)
{
	long copy = tacet_slot_alloc(), r;

	if (copy < 0)
		return copy;
	r = tacet_cap_copy(ntfn, (unsigned long)copy, TACET_RIGHT_WRITE, 0);
	if (!r)
		r = connect();
	if (!r)
		r = alarm(at_ns, (unsigned long)copy, bits);
	if (r && reconnected(r))
		r = alarm(at_ns, (unsigned long)copy, bits);
	tacet_slot_free((unsigned long)copy);
	return r;
}
