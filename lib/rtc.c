/* rtc.c: the client side of the "rtc" service (<tacet/rtc.h>, <tacet/rtc_proto.h>): one
 * endpoint capability in a slot of lib's, looked up at the first call and again after the
 * server was restarted. */
#include <tacet.h>
#include <tacet/rtc.h>
#include <tacet/rtc_proto.h>

#define RTC_LOOKUP_TRIES    1000 /* 1 ms apart: how long the service may take to appear */
#define RTC_RECONNECT_TRIES 5000 /* how long a restart may take */

static long rtc_slot;

static long connect(void)
{
	long slot, err;

	if (rtc_slot)
		return 0;
	slot = tacet_slot_alloc();
	if (slot < 0)
		return slot;
	err = tacet_lookup("rtc", (unsigned long)slot, RTC_LOOKUP_TRIES);
	if (err) {
		tacet_slot_free((unsigned long)slot);
		return err;
	}
	rtc_slot = slot;
	return 0;
}

/* One call, again on the restarted server if the first found it gone; the reply's w0. */
static long rtc_call(struct tacet_msg *msg)
{
	struct tacet_msg sent = *msg;
	long err = connect();

	if (!err)
		err = tacet_call((unsigned long)rtc_slot, msg);
	if (err == -TACET_EDEAD &&
	    tacet_reconnect("rtc", (unsigned long)rtc_slot, RTC_RECONNECT_TRIES) == 0) {
		*msg = sent;
		err = tacet_call((unsigned long)rtc_slot, msg);
	}
	return err ? err : (long)msg->w[0];
}

long tacet_rtc_time(uint64_t *ns)
{
	struct tacet_msg msg = { .tag = TACET_TAG(RTC_TIME, 0) };
	long r = rtc_call(&msg);

	if (r < 0)
		return r;
	*ns = (uint64_t)r;
	return 0;
}

long tacet_rtc_alarm(uint64_t at_ns, unsigned long ntfn, unsigned long bits)
{
	long copy = tacet_slot_alloc(), r;
	struct tacet_msg msg = { .w = { at_ns, bits } };

	if (copy < 0)
		return copy;
	r = tacet_cap_copy(ntfn, (unsigned long)copy, TACET_RIGHT_WRITE, 0);
	msg.tag = TACET_TAG_CAP(RTC_ALARM, 2, (unsigned long)copy);
	if (!r)
		r = rtc_call(&msg);
	tacet_slot_free((unsigned long)copy);
	return r;
}
