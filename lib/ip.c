/* ip.c: the client side of the IP stack's service "ip" (<tacet/ip.h>, <tacet/ip_proto.h>, the
 * stubs generated from lib/proto/ip.proto): one endpoint capability in a slot of lib's, looked
 * up at the first call and again after the server was restarted. */
#include <tacet.h>
#include <tacet/init_proto.h>
#include <tacet/ip.h>
#include <tacet/ip_client.h>

#define IP_LOOKUP_TRIES    1000 /* 1 ms apart: how long the service may take to appear */
#define IP_RECONNECT_TRIES 5000 /* how long a restart may take */

static long ip_slot;

static long connect(void)
{
	long slot, err;

	if (ip_slot)
		return 0;
	slot = tacet_slot_alloc();
	if (slot < 0)
		return slot;
	err = tacet_lookup("ip", (unsigned long)slot, IP_LOOKUP_TRIES);
	if (err) {
		tacet_slot_free((unsigned long)slot);
		return err;
	}
	ip_slot = slot;
	return 0;
}

/* The service's instance ended (a call found it gone): reach the next one. */
static int reconnected(long err)
{
	return err == -TACET_EDEAD &&
	       tacet_reconnect("ip", (unsigned long)ip_slot, IP_RECONNECT_TRIES) == 0;
}

long tacet_ip_info(struct tacet_ip_info *info)
{
	uint64_t addr = 0, mask = 0, gw = 0;
	long err = connect();

	if (!err)
		err = ip_call_info((unsigned long)ip_slot, &addr, &mask, &gw);
	if (err && reconnected(err))
		err = ip_call_info((unsigned long)ip_slot, &addr, &mask, &gw);
	info->addr = (uint32_t)addr;
	info->mask = (uint32_t)mask;
	info->gw = (uint32_t)gw;
	return err;
}

long tacet_ip_ping(uint32_t addr, unsigned int seq, unsigned int timeout_ms,
		   struct tacet_ip_ping *r)
{
	uint64_t answered = 0, rtt = 0, ttl = 0;
	long err = connect();

	if (!err)
		err = ip_call_ping((unsigned long)ip_slot, addr, seq, timeout_ms, &answered, &rtt, &ttl);
	if (err && reconnected(err))
		err = ip_call_ping((unsigned long)ip_slot, addr, seq, timeout_ms, &answered, &rtt, &ttl);
	r->answered = (int)answered;
	r->rtt_ns = rtt;
	r->ttl = (unsigned int)ttl;
	return err;
}
