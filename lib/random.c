/* random.c: the entropy service's client (<tacet/random.h>, <tacet/rng_proto.h>): RNG_READ
 * calls of up to 32 bytes on the capability it looks up once into TACET_CHILD_RNG. */
#include <string.h>
#include <tacet.h>
#include <tacet/init_proto.h>
#include <tacet/random.h>
#include <tacet/rng_proto.h>

#define RNG_LOOKUP_TRIES 1000 /* 1 ms apart: at boot, or while init restarts the service */

static int attached;

static long attach(void)
{
	long err;

	if (attached)
		return 0;
	err = tacet_lookup("rng", TACET_CHILD_RNG, RNG_LOOKUP_TRIES);
	attached = err == 0;
	return err;
}

/* One call on the service; again on the new instance if the old one has ended. */
static long rng_call(struct tacet_msg *msg)
{
	struct tacet_msg sent = *msg;
	long err = tacet_call(TACET_CHILD_RNG, msg);

	if (err == -TACET_EDEAD && tacet_reconnect("rng", TACET_CHILD_RNG, RNG_LOOKUP_TRIES) == 0) {
		*msg = sent;
		err = tacet_call(TACET_CHILD_RNG, msg);
	}
	if (err == -TACET_EDEAD || err == -TACET_ENOENT)
		attached = 0; /* look it up again next time */
	return err;
}

long tacet_random(void *buf, unsigned long len)
{
	unsigned char *out = buf;
	unsigned long done = 0;
	long err = attach();

	while (!err && done < len) {
		unsigned long n = len - done < RNG_READ_MAX ? len - done : RNG_READ_MAX;
		struct tacet_msg msg = { .tag = TACET_TAG(RNG_READ, 1), .w = { n } };

		err = rng_call(&msg);
		if (!err && TACET_TAG_LABEL(msg.tag) == RNG_ERROR)
			err = (long)msg.w[0];
		if (!err) {
			memcpy(out + done, msg.w, n);
			done += n;
		}
	}
	return err ? err : (long)len;
}

long tacet_random_stats(struct tacet_rng_stats *stats)
{
	struct tacet_msg msg = { .tag = TACET_TAG(RNG_STATS, 0) };
	long err = attach();

	if (!err)
		err = rng_call(&msg);
	if (err)
		return err;
	stats->completed = msg.w[0];
	stats->in_flight = msg.w[1];
	stats->irqs = msg.w[2];
	stats->line_count = msg.w[3];
	return 0;
}
