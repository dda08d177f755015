/* random.c: the entropy service's client (<tacet/random.h>, <tacet/rng_proto.h>, the stubs
 * generated from lib/proto/rng.proto): RNG_READ calls of up to 32 bytes on the capability it
 * looks up once into TACET_CHILD_RNG. */
#include <string.h>
#include <tacet.h>
#include <tacet/init_proto.h>
#include <tacet/random.h>
#include <tacet/rng_client.h>

#define RNG_LOOKUP_TRIES 1000 /* 1 ms apart: at boot, or while init restarts the service */

static int attached;
static unsigned long instance; /* the service's instance the slot reaches */

/* The slot may still hold an ended instance's endpoint (a reconnect that failed): dropped. */
static long attach(void)
{
	long err;

	if (attached)
		return 0;
	err = tacet_reconnect_instance("rng", TACET_CHILD_RNG, RNG_LOOKUP_TRIES, &instance);
	attached = err == 0;
	return err;
}

/* A call found the service gone: reconnected to its next instance (1: call again). */
static int reconnected(long err)
{
	return err == -TACET_EDEAD &&
	       tacet_reconnect_next("rng", TACET_CHILD_RNG, RNG_LOOKUP_TRIES, &instance) == 0;
}

/* The call's outcome: a service that is gone is looked up again next time. */
static long settled(long err)
{
	if (err == -TACET_EDEAD || err == -TACET_ENOENT)
		attached = 0;
	return err;
}

static long read_some(uint64_t w[4], unsigned long n)
{
	long err = rng_call_read(TACET_CHILD_RNG, n, &w[0], &w[1], &w[2], &w[3]);

	if (reconnected(err))
		err = rng_call_read(TACET_CHILD_RNG, n, &w[0], &w[1], &w[2], &w[3]);
	return settled(err);
}

long tacet_random(void *buf, unsigned long len)
{
	unsigned char *out = buf;
	unsigned long done = 0;
	long err = attach();

	while (!err && done < len) {
		unsigned long n = len - done < RNG_READ_MAX ? len - done : RNG_READ_MAX;
		uint64_t w[4] = { 0 };

		err = read_some(w, n);
		if (!err) {
			memcpy(out + done, w, n);
			done += n;
		}
	}
	return err ? err : (long)len;
}

long tacet_random_stats(struct tacet_rng_stats *stats)
{
	uint64_t w[4] = { 0 };
	long err = attach();

	if (!err)
		err = rng_call_stats(TACET_CHILD_RNG, &w[0], &w[1], &w[2], &w[3]);
	if (reconnected(err))
		err = rng_call_stats(TACET_CHILD_RNG, &w[0], &w[1], &w[2], &w[3]);
	if (settled(err))
		return err;
	stats->completed = w[0];
	stats->in_flight = w[1];
	stats->irqs = w[2];
	stats->line_count = w[3];
	return 0;
}
