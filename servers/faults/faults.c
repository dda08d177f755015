/* faults: the fault injection campaign (make faults; the short seeded run of make test,
 * tests/qemu/cases_faults.py). On the faults kernel, with the trace authority (`%`), it throws
 * N faults at the real drivers (TACET_SYS_INJECT: enum tacet_inject_op), one at a time, each at
 * a driver picked at random among those its parameters name, while it is their client. A fault
 * is thrown at rest (where the driver waits for work: almost always its service loop's
 * receive) or at work (by the catcher, a thread of this server on the drivers' hart, while the
 * campaign uses the driver: where an interrupt took it off its hart, TACET_INJECT_BUSY), half
 * each. After each fault it uses that driver until it answers well again, then every other
 * driver once (an error or a restart there, or a driver restarted since its last use, is a
 * latent fault, said on a line of its own).
 *   - blk: a random write of a random sector of its grant, then a random read checked against
 *     the shadow copy it keeps of every sector (a write that failed makes its sector unknown
 *     until written again); every sector is sealed (<tacet/blk_seal.h>: written with its
 *     number, a generation and a CRC), so a read whose seal fails (other data, another
 *     sector's, an older write's) is an error the client found, and the sector is written
 *     again; a read that passes its seal with other data than the shadow's is a silent
 *     mismatch;
 *   - rng: a read of 16 bytes;
 *   - rtc: the time of day (later than 2020, within a second of the timebase's time plus the
 *     difference the first use saw: a garbage answer never becomes the reference), and
 *     every ALARM_EVERY-th use an alarm 0.5 ms ahead, which must come within 25 ms (asked for
 *     again until it does);
 *   - console: CONSOLE_SYNC (a call the console server answers once its output is out);
 *   - net: NET_STATS of net0 (its frames carry the host's TCP stream to the echo service
 *     through ip, which tools/faults.py checks byte for byte, by digest); after a fault into
 *     net, its data path too: the stream must move again (ip takes frames from net0) before
 *     the next fault (stream_after);
 *   - pci (the PCI bus server, in a boot where rng and blk are virtio-pci functions behind
 *     it): its service loop's liveness answer, then each chosen driver behind it once (use_pci).
 * Its parameters are the name its init.run= entry grants it, `faults=N.SEED.DRIVERS[.OPTION...]`
 * (DRIVERS: letters r, b, t, u, n, p for rng, blk, rtc, the console's uart, net0's net, pci;
 * OPTIONs: options()), as tools/faults.py writes it:
 *   init.run=uart=console:ns16550a*1000000~10,rng:virtio-rng*1000000~10,
 *            rtc:goldfish-rtc*1000000~10,blk:virtio-blk*1000000~10,
 *            ^%faults=1000.1.rbtu@1/120[blk=0-63;rng=1;rtc=1;console=1] init.restart_max_ms=0
 * (every driver restarted at once as often as it takes, asked whether it is alive every 2 ms
 * and ended after 10 ms unanswered; the grants let it report a service that answers only with
 * errors, or leaves a request unanswered, for STUCK_NS: INIT_STUCK, which ends that instance;
 * with pci among the drivers, `;pci=1` too: bus_of);
 * its priority, above the drivers', is the catcher's). The faults (driver, type, mode, where,
 * value) come from a generator of their own: a seed throws the same ones in every run.
 * Per fault it prints one line, `faults: #K DRIVER TYPE where=W value=V[ at-work] -> OUTCOME in
 * T us (E errors)`, OUTCOME one of none (the driver answered well at once, same instance), error
 * (it answered with an error, same instance), restart (another instance answered: init's lines
 * in between say whether it crashed or stopped answering), mismatch (blk: a silent one),
 * unrecovered (no good answer within RECOVER_NS), skipped (the thread stayed running, or was
 * never caught at work, or had ended: nothing thrown); tools/faults.py makes the figures from
 * these lines. At the end: each driver answers, every page and kernel object is back (as after
 * the warm-up rounds of uses, before any fault; restarted drivers hold what their first
 * instances held), the totals, and `faults: PASS` or `faults: FAIL`, then it powers off. Three
 * threads: the campaign, the catcher, and a watcher that says every thread's state when a use
 * takes longer than 2 s. No IPC protocol. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tacet.h>
#include <tacet/blk.h>
#include <tacet/console_client.h>
#include <tacet/init_proto.h>
#include <tacet/ip_client.h>
#include <tacet/net_client.h>
#include <tacet/random.h>
#include <tacet/rtc.h>
#include "target.h"

#define SHADOW_SECTORS 64
#define RECOVER_NS 10000000000ull  /* a driver must answer well again within 10 s */
#define RETRY_NS 1000000ull        /* between two uses that failed */
#define BLK_TIMEOUT_NS 25000000ull /* a blk request unanswered this long is reported */
#define ALARM_EVERY 8
#define ALARM_AHEAD_NS 500000ull
#define ALARM_WAIT_NS 25000000ull
#define RTC_YEAR_2020_NS 1577836800000000000ull
#define RTC_SLACK_NS 1000000000ull /* the RTC counts whole seconds */
#define INJECT_TRIES 100
#define TIMES_KEPT 2048 /* the median is a sample's past that many (the worst is exact) */
#define SLOT_CONSOLE (TACET_CHILD_FIRST_FREE + 0)
#define SLOT_ALARM (TACET_CHILD_FIRST_FREE + 1)
#define SLOT_SCRATCH (TACET_CHILD_FIRST_FREE + 2)
#define SLOT_WATCH (TACET_CHILD_FIRST_FREE + 3) /* the watcher's timer */
#define SLOT_CATCH (TACET_CHILD_FIRST_FREE + 4) /* the catcher's: CATCH_GO and its timer */
#define SLOT_NET (TACET_CHILD_FIRST_FREE + 5)
#define SLOT_IP (TACET_CHILD_FIRST_FREE + 6)
#define SLOT_PCI (TACET_CHILD_FIRST_FREE + 7)
#define SLOT_WATCH_LOOKUP (TACET_CHILD_FIRST_FREE + 8) /* the watcher's report of pci */
#define CATCH_GO 1ul
#define CATCH_TIMER 2ul
#define CATCH_HART 0          /* the drivers' (their entries name none) */
#define CATCH_PAUSE_NS 50000  /* the catcher tries again within this (a random pause)... */
#define CATCH_USES 200        /* ...while the campaign uses the driver up to this many times */
#define WATCH_NS 500000000ull     /* the watcher looks twice a second... */
#define SLOW_USE_NS 2000000000ull /* ...for a use under way this long */
#define STUCK_NS 25000000ull       /* errors for this long: the service is reported to init */
#define BUS_STUCK_NS 2000000000ull /* pci: longer than a release and a claim (1.2 s at most) */
#define ALARM_BIT 1ul
#define ALARM_TIMEOUT_BIT 2ul

enum outcome { NONE, ERROR, RESTART, MISMATCH, UNRECOVERED, SKIPPED, OUTCOMES };
enum mode { AT_REST, AT_WORK, MODES }; /* where the driver's thread was stopped */
static const char *const outcome_names[OUTCOMES] = { "none", "error", "restart", "mismatch",
						     "unrecovered", "skipped" };

/* The fault types: the injector's ops, a register fault split by the register's role. The last
 * two, garbage in a reply and a driver that stops consuming its rings, are drawn only with the
 * `g` option (a seed's faults without it are those it always drew: FIRST_TYPES). */
enum type { REG_ARG, REG_SAVED, REG_SP, REG_RA, REG_PC, TEXT_FLIP, TEXT_SET, DATA, HANG, REPLY,
	    DEAF, TYPES };
#define FIRST_TYPES REPLY
static const char *const type_names[TYPES] = { "reg-arg", "reg-saved", "reg-sp", "reg-ra",
					       "reg-pc", "text-flip", "text-set", "data", "hang",
					       "reply", "deaf" };
static unsigned int types_drawn = FIRST_TYPES; /* TYPES with the `g` option */

struct driver {
	char letter;
	const char *process, *service;
	long (*use)(struct driver *d); /* 0: answered well; else the error (MISMATCH_ERR too) */
	unsigned long faults[MODES][TYPES], outcomes[MODES][OUTCOMES], latent, reports;
	unsigned int tid; /* its thread when last used: another since is a latent restart */
};

#define MISMATCH_ERR (-1000) /* use_blk: a read answered with other data than the shadow's */

static uint64_t pick_state;   /* the faults' generator: which driver, type, where, value */
static unsigned long inject_flags; /* TACET_INJECT_DMA with the `d` option */
static uint64_t client_state; /* the client's: blk's sectors and data, the times' sample */
static struct tacet_blk blk;
static uint8_t shadow[SHADOW_SECTORS][BLK_SECTOR];
static uint8_t known[SHADOW_SECTORS];
static uint32_t sealed_gen[SHADOW_SECTORS]; /* the generation of its last write that succeeded */
static uint32_t generation;                 /* the last generation written, any sector */
static unsigned long seal_failures;         /* reads whose seal failed: told, not silent */
static unsigned long held_by_lib;    /* blk waits that failed with the request still in lib */
static unsigned long buffer_changed; /* blk writes whose buffer changed before they completed */
static int64_t rtc_offset_ns; /* the time of day less the timebase's: the reference */
static int rtc_offset_known;
static int64_t rtc_moved_to;  /* another difference the last use saw */
static int rtc_moved_to_known;
static unsigned long clock_moves;
static unsigned long rtc_uses, console_instance, mismatches;
static int console_open;
static unsigned long net_instance, pci_instance;
static int net_open, ip_open, pci_open;

static uint64_t xorshift64(uint64_t *state)
{
	*state ^= *state << 13;
	*state ^= *state >> 7;
	*state ^= *state << 17;
	return *state;
}

/* The faults come from a generator of their own, which nothing but the picks draws from: a seed
 * throws the same faults in every run, whatever the drivers answered (the client's draws
 * depend on how many uses each recovery took). */
static uint64_t pick(void)
{
	return xorshift64(&pick_state);
}

static uint64_t next(void)
{
	return xorshift64(&client_state);
}

static long use_rng(struct driver *d)
{
	unsigned char buf[16];
	long r = tacet_random(buf, sizeof(buf));

	(void)d;
	return r == sizeof(buf) ? 0 : r < 0 ? r : -TACET_ERANGE;
}

static long blk_one(unsigned int op, uint64_t sector);

/* The buffer no longer held what a write of sector s submitted (sent) when it completed: said,
 * with what it holds (the bytes that differ, whose seal) and what the disk holds, read back. */
static void blk_buffer_changed(unsigned int s, const uint8_t *sent)
{
	const uint8_t *buf = (const uint8_t *)blk.buf.va;
	unsigned int first = BLK_SECTOR, n = 0;
	struct blk_seal_fault f;
	uint32_t gen = 0;
	char holds[48];
	long err;

	buffer_changed++;
	for (unsigned int i = 0; i < BLK_SECTOR; i++)
		if (buf[i] != sent[i] && n++ == 0)
			first = i;
	if (blk_seal_check(buf, blk.first + s, 1, 0, &gen, &f) && f.why == BLK_SEAL_CRC)
		snprintf(holds, sizeof(holds), "no seal");
	else
		snprintf(holds, sizeof(holds), "sector %llu's generation %u",
			 (unsigned long long)((f.why ? f.named : blk.first + s) - blk.first), gen);
	err = blk_one(BLK_READ, blk.first + s);
	printf("faults: blk's buffer changed under a write of sector %u (generation %u): %u bytes "
	       "from byte %u, %s; read back, the disk holds %s\n", s, generation, n, first, holds,
	       err ? tacet_strerror(err) : memcmp(buf, sent, BLK_SECTOR) ? "other data" : "the write");
}

/* Requests blk_one stopped waiting for at its limit (RECOVER_NS: that fault unrecovered),
 * which lib still holds: each is waited for again before any other is submitted (blk_settle). */
static uint32_t given_up;

/* Request id waited for until lib no longer holds it, up to `until`: a wait that ends in an
 * error may leave it in flight (the timeout, -TACET_EBUSY) or kept by lib to be submitted again
 * to the service's next instance (a reconnect that failed), and the device would later write
 * into the buffer (a read's data) or take from it (a write's) what the next request put there.
 * Still held at `until`: given up (given_up). Each wait that failed otherwise than by its
 * timeout with the request still held is counted and said (held_by_lib). */
static long blk_wait_for(long id, unsigned int op, uint64_t sector, uint64_t until)
{
	for (;;) {
		long err = tacet_blk_wait(&blk, id);

		if (!(blk.busy & (1u << id))) {
			given_up &= ~(1u << id);
			return err;
		}
		if (tacet_time_ns() >= until) {
			given_up |= 1u << id;
			return err;
		}
		if (err == -TACET_EBUSY)
			continue;
		held_by_lib++;
		printf("faults: blk %s of sector %llu: its wait failed (%s) with the request still "
		       "held by lib: waited for again\n", op == BLK_READ ? "read" : "write",
		       (unsigned long long)(sector - blk.first), tacet_strerror(err));
		tacet_sleep_ns(RETRY_NS);
	}
}

/* The requests given up earlier, waited for again (up to `until`) before another is submitted:
 * the device may still write the buffer for one of them, and lib frees an id only once its
 * completion is collected (given up and never collected, BLK_IDS of them left no id: every
 * later submission said -TACET_EBUSY and every use of blk failed for good, through every
 * restart: seed 73 over the shared line, after 16 uses given up while a faulted rng held the
 * line masked). 0, or the error of one still held. */
static long blk_settle(uint64_t until)
{
	for (long id = 0; id < BLK_IDS; id++) {
		long err;

		if (!(given_up & (1u << id)))
			continue;
		err = blk_wait_for(id, blk.req[id].op, blk.req[id].sector, until);
		if (given_up & (1u << id))
			return err ? err : -TACET_EBUSY;
	}
	return 0;
}

/* One request of one sector through the buffer's start, after the requests given up earlier
 * (blk_settle), waited for until lib no longer holds it (blk_wait_for), up to RECOVER_NS; past
 * it the fault is unrecovered anyway. */
static long blk_one(unsigned int op, uint64_t sector)
{
	uint64_t until = tacet_time_ns() + RECOVER_NS;
	long id, err = blk_settle(until);

	if (err)
		return err;
	id = tacet_blk_submit(&blk, op, sector, 1, 0);
	return id < 0 ? id : blk_wait_for(id, op, sector, until);
}

/* Sector s (of the shadow's) written sealed from the buffer's start, whose first BLK_SEAL_DATA
 * bytes hold its data: if the write succeeded the shadow takes what was sealed and submitted
 * (a copy taken before the request, never the buffer after it: a request lib submitted again
 * may have landed a read's data there since the device took the write's), else s is unknown.
 * A buffer that changed under the write is counted and said (buffer_changed); the disk's copy
 * is then checked by the next read's seal like any other. */
static long blk_write_sealed(unsigned int s)
{
	uint8_t *buf = (uint8_t *)blk.buf.va;
	uint8_t sent[BLK_SECTOR];
	long err;

	blk_seal(buf, blk.first + s, 1, ++generation);
	memcpy(sent, buf, BLK_SECTOR);
	err = blk_one(BLK_WRITE, blk.first + s);
	known[s] = !err; /* a write that failed may or may not have landed */
	if (err)
		return err;
	if (memcmp(sent, buf, BLK_SECTOR))
		blk_buffer_changed(s, sent);
	memcpy(shadow[s], sent, BLK_SECTOR);
	sealed_gen[s] = generation;
	return 0;
}

/* A read of sector r (known: its last write succeeded) whose seal failed: said, and r written
 * again from the shadow, so that the damage is found once, by the fault that made it. */
static long blk_seal_failed(unsigned int r, const struct blk_seal_fault *f)
{
	static const char *const why[] = { "?", "its data", "another sector's", "an older write" };
	uint8_t *buf = (uint8_t *)blk.buf.va;

	seal_failures++;
	printf("faults: blk sector %u failed its seal: %s (generation %u, at least %u)\n", r,
	       why[f->why], f->gen, sealed_gen[r]);
	memcpy(buf, shadow[r], BLK_SEAL_DATA);
	blk_write_sealed(r);
	return -TACET_ECORRUPT;
}

/* A silent mismatch on sector r (the read passed its seal): what the read holds against the
 * shadow, for the log (the write before it was of sector w). */
static void blk_mismatch_said(unsigned int r, unsigned int w, const uint8_t *buf)
{
	uint32_t gen = 0, was = 0;
	unsigned int at = 0;

	blk_seal_check(buf, blk.first + r, 1, 0, &gen, NULL);
	blk_seal_check(shadow[r], blk.first + r, 1, 0, &was, NULL);
	while (at < BLK_SECTOR && buf[at] == shadow[r][at])
		at++;
	printf("faults: blk sector %u (after a write of %u): sealed generation %u, the shadow's %u, "
	       "first different byte %u\n", r, w, gen, was, at);
}

/* A write of a random sector, then a read of a random sector checked: its seal, then against
 * the shadow, both on one copy of what the read brought (the buffer is the device's to write
 * while lib holds any request). */
static long use_blk(struct driver *d)
{
	unsigned int w = (unsigned int)(next() % SHADOW_SECTORS), r;
	uint8_t *buf = (uint8_t *)blk.buf.va, got[BLK_SECTOR];
	struct blk_seal_fault f;
	long err;

	(void)d;
	for (unsigned int i = 0; i < BLK_SEAL_DATA; i += 8) {
		uint64_t v = next();

		memcpy(buf + i, &v, 8);
	}
	if ((err = blk_write_sealed(w)))
		return err;
	r = (unsigned int)(next() % SHADOW_SECTORS);
	if ((err = blk_one(BLK_READ, blk.first + r)))
		return err;
	memcpy(got, buf, BLK_SECTOR);
	if (blk_seal_check(got, blk.first + r, 1, sealed_gen[r], NULL, &f)) {
		if (known[r])
			return blk_seal_failed(r, &f);
		blk_write_sealed(r); /* a write that failed may have left it torn: no news */
		return 0;
	}
	if (known[r] && memcmp(shadow[r], got, BLK_SECTOR)) {
		blk_mismatch_said(r, w, got);
		mismatches++; /* once: the shadow takes what the disk holds */
		memcpy(shadow[r], got, BLK_SECTOR);
		return MISMATCH_ERR;
	}
	memcpy(shadow[r], got, BLK_SECTOR); /* unknown: what the disk holds now */
	known[r] = 1;
	return 0;
}

/* An alarm ALARM_AHEAD_NS ahead, which must come within ALARM_WAIT_NS. */
static long rtc_alarm(uint64_t now_ns)
{
	long err = tacet_rtc_alarm(now_ns + ALARM_AHEAD_NS, SLOT_ALARM, ALARM_BIT), bits;

	if (err)
		return err;
	tacet_timer_set(SLOT_ALARM, ALARM_TIMEOUT_BIT, tacet_time() + tacet_ns_to_ticks(ALARM_WAIT_NS));
	bits = tacet_wait(SLOT_ALARM);
	tacet_timer_set(SLOT_ALARM, ALARM_TIMEOUT_BIT, 0);
	tacet_poll(SLOT_ALARM);
	return bits > 0 && (bits & ALARM_BIT) ? 0 : -TACET_EBUSY;
}

/* Are two differences between the time of day and the timebase's the same, within a second? */
static int near(int64_t a, int64_t b)
{
	return a - b <= (int64_t)RTC_SLACK_NS && b - a <= (int64_t)RTC_SLACK_NS;
}

/* A time of day `offset` away from the timebase's, not the reference's: garbage, unless the
 * use before saw the same (-TACET_ERANGE until then). Twice the same is the device's clock
 * itself moved (a faulty driver can write the goldfish RTC's time registers, and the device
 * keeps it across restarts): said once, and the reference follows it. */
static long rtc_moved(int64_t offset)
{
	if (!rtc_moved_to_known || !near(offset, rtc_moved_to)) {
		rtc_moved_to = offset;
		rtc_moved_to_known = 1;
		return -TACET_ERANGE;
	}
	printf("faults: rtc's clock moved %lld s (its time registers written): the reference "
	       "follows it\n", (long long)((offset - rtc_offset_ns) / 1000000000));
	rtc_offset_ns = offset;
	rtc_moved_to_known = 0;
	clock_moves++;
	return 0;
}

static long use_rtc(struct driver *d)
{
	uint64_t ns = 0;
	long err = tacet_rtc_time(&ns);

	(void)d;
	if (err)
		return err;
	/* The RTC and the timebase both count real time: a time of day more than RTC_SLACK_NS
	 * off the reference difference (the first use's) is garbage (answered, but not the
	 * time), or the device's clock moved (rtc_moved). An answer is never checked against the
	 * last answer, which a fault may have made garbage itself (a time years ahead once made
	 * every later true time "behind"). */
	if (ns < RTC_YEAR_2020_NS)
		return -TACET_ERANGE;
	if (!rtc_offset_known) {
		rtc_offset_ns = (int64_t)(ns - tacet_time_ns());
		rtc_offset_known = 1;
	}
	if (!near((int64_t)(ns - tacet_time_ns()), rtc_offset_ns) &&
	    (err = rtc_moved((int64_t)(ns - tacet_time_ns()))))
		return err;
	rtc_moved_to_known = 0;
	if ((rtc_uses + 1) % ALARM_EVERY == 0 && (err = rtc_alarm(ns)))
		return err; /* the next use asks for an alarm again */
	rtc_uses++;
	return 0;
}

static long use_console(struct driver *d)
{
	long err = console_open ? 0 : tacet_lookup_instance("console", SLOT_CONSOLE, 5000,
							    &console_instance);

	(void)d;
	console_open = !err;
	if (!err)
		err = console_call_sync(SLOT_CONSOLE);
	if (err == -TACET_EDEAD &&
	    tacet_reconnect_next("console", SLOT_CONSOLE, 5000, &console_instance) == 0)
		err = console_call_sync(SLOT_CONSOLE);
	return err;
}

/* net0's NET_STATS, answered by the instance that runs now. Its frames are the host's TCP
 * stream's to check (tools/faults.py: every byte echoed, by digest), not this use's. */
static long use_net(struct driver *d)
{
	uint64_t rx, tx, irqs, drops;
	long err = net_open ? 0 : tacet_lookup_instance("net0", SLOT_NET, 5000, &net_instance);

	(void)d;
	net_open = !err;
	if (!err)
		err = net_call_stats(SLOT_NET, &rx, &tx, &irqs, &drops);
	if (err == -TACET_EDEAD &&
	    tacet_reconnect_next("net0", SLOT_NET, 5000, &net_instance) == 0)
		err = net_call_stats(SLOT_NET, &rx, &tx, &irqs, &drops);
	return err;
}

/* Frames ip has taken from net0 since its start (IP_COUNTS' received: lwIP's count, kept by ip,
 * which no fault reaches), or 0 if ip does not answer. The host's TCP stream is net0's only
 * traffic once the lease is taken (a few ARP and DHCP frames a minute), and it sends a chunk
 * only when the last one came back whole: frames reaching ip steadily are the stream moving
 * both ways through net. net0's own NET_STATS would not do: its counts are the faulted
 * driver's, which a data fault may have written, and a restart starts them at 0. */
static uint64_t ip_rx(void)
{
	uint64_t rx = 0, bad, dropped, frags;
	long err = ip_open ? 0 : tacet_reconnect("ip", SLOT_IP, 5000);

	ip_open = !err;
	if (!err && (err = ip_call_counts(SLOT_IP, &rx, &bad, &dropped, &frags)) == -TACET_EDEAD)
		ip_open = 0; /* ip restarted (it is not faulted, but its entry restarts it) */
	return err ? 0 : rx;
}

/* With net chosen: the host's TCP stream flows (ip has taken STREAM_FRAMES more frames from
 * net0 than `from`: DHCP's are a handful), within `ns`. The time it took (ns), or 0 if it did
 * not. */
#define STREAM_FRAMES 256
#define STREAM_RESUME_NS 60000000000ull /* after the last fault: TCP's back-off may be long */
static uint64_t stream_flows(uint64_t from, uint64_t ns)
{
	uint64_t start = tacet_time_ns();

	while (tacet_time_ns() - start < ns) {
		if (ip_rx() >= from + STREAM_FRAMES)
			return tacet_time_ns() - start + 1;
		tacet_sleep_ns(10 * RETRY_NS);
	}
	return 0;
}

static long use_pci(struct driver *d);

static struct driver drivers[] = {
	{ .letter = 'r', .process = "rng", .service = "rng", .use = use_rng },
	{ .letter = 'b', .process = "blk", .service = "blk", .use = use_blk },
	{ .letter = 't', .process = "rtc", .service = "rtc", .use = use_rtc },
	{ .letter = 'u', .process = "uart", .service = "console", .use = use_console },
	{ .letter = 'n', .process = "net", .service = "net0", .use = use_net },
	{ .letter = 'p', .process = "pci", .service = "pci", .use = use_pci },
};
#define NDRIVERS (sizeof(drivers) / sizeof(drivers[0]))
#define BEHIND_PCI "rb" /* the drivers over virtio-pci in a boot with the PCI server */

static struct driver *chosen[NDRIVERS];
static unsigned int nchosen;

/* The bus server's own loop: the liveness question (TACET_LABEL_ALIVE, which lib's service
 * loop answers itself, for any caller, changing nothing): pci's protocol has no call for a
 * client that claims nothing, and the campaign must not claim a function, which would take it
 * from its driver. 0, or the call's error. */
static long pci_alive(void)
{
	struct tacet_msg m = { .tag = TACET_TAG(TACET_LABEL_ALIVE, 0) };
	long err = pci_open ? 0 : tacet_lookup_instance("pci", SLOT_PCI, 5000, &pci_instance);

	pci_open = !err;
	if (!err)
		err = tacet_call(SLOT_PCI, &m);
	if (err == -TACET_EDEAD &&
	    tacet_reconnect_next("pci", SLOT_PCI, 5000, &pci_instance) == 0) {
		m = (struct tacet_msg){ .tag = TACET_TAG(TACET_LABEL_ALIVE, 0) };
		err = tacet_call(SLOT_PCI, &m);
	}
	return err;
}

/* pci answers (pci_alive), then every chosen driver behind it once (BEHIND_PCI): a pci
 * instance's end ends them (a claim lives no longer than the instance that granted it), and
 * they answer again once they have claimed from the next. When pci restarted since its last
 * use, their restarts are its fault's: their threads are kept again here, so that the round of
 * uses after it does not count them as latent faults of their own. */
static long use_pci(struct driver *d)
{
	int restarted = target_thread(d->process) != d->tid;
	long err = pci_alive();

	for (unsigned int i = 0; i < nchosen && !err; i++) {
		struct driver *b = chosen[i];

		if (!strchr(BEHIND_PCI, b->letter))
			continue;
		err = b->use(b);
		if (restarted)
			b->tid = target_thread(b->process);
	}
	return err;
}

/* The registers of each role, by number: a0..a7, s0..s11. */
static const unsigned char arg_regs[] = { 10, 11, 12, 13, 14, 15, 16, 17 };
static const unsigned char saved_regs[] = { 8, 9, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27 };

/* The injector's arguments for a fault of type t: op, where, value. */
static unsigned long fault_args(enum type t, unsigned long *where, unsigned long *value)
{
	*where = pick();
	*value = pick() % 64;
	switch (t) {
	case REG_ARG:
		*where = arg_regs[*where % sizeof(arg_regs)];
		return TACET_INJECT_REG;
	case REG_SAVED:
		*where = saved_regs[*where % sizeof(saved_regs)];
		return TACET_INJECT_REG;
	case REG_SP:
		*where = 2;
		return TACET_INJECT_REG;
	case REG_RA:
		*where = 1;
		return TACET_INJECT_REG;
	case REG_PC:
		*where = TACET_INJECT_REG_PC;
		return TACET_INJECT_REG;
	case TEXT_FLIP:
		*value %= 32;
		return TACET_INJECT_TEXT_FLIP;
	case TEXT_SET:
		*value = pick() & 0xffffffffu;
		return TACET_INJECT_TEXT_SET;
	case DATA:
		*value = pick();
		return TACET_INJECT_DATA;
	case REPLY:
		*value = pick() | 1; /* never 0 */
		return TACET_INJECT_REPLY;
	case DEAF:
		*value = 0;
		return TACET_INJECT_DEAF;
	default:
		*value = 0;
		return TACET_INJECT_HANG;
	}
}

/* d's service has answered with errors for STUCK_NS: tell init (INIT_STUCK) about the instance
 * that runs now, which it ends and restarts (the entries say `~`, and grant this client each
 * service). */
static void report_stuck(struct driver *d)
{
	unsigned long instance = 0;

	if (tacet_lookup_instance(d->service, SLOT_SCRATCH, 0, &instance) == 0 &&
	    tacet_report_stuck(d->service, instance) == 0)
		d->reports++;
	tacet_cap_delete(SLOT_SCRATCH);
}

/* The watcher (a thread of its own, on this hart): once a use has taken longer than
 * SLOW_USE_NS it writes every thread's state once, which says who held the harts meanwhile (it
 * found init's lookup bug: the campaign waiting on lookups while every driver was idle). A use
 * of pci, or of a driver behind it (bus_of), that has taken longer than BUS_STUCK_NS has pci
 * reported from here, once (watcher_report): such a use may not return before RECOVER_NS (lib's
 * blk client waits up to 10 s for an instance to publish, and an instance whose function a
 * faulted pci never released hangs in its claim), so recover's report after it came too late,
 * and every fault after it was unrecovered too. It shares use_started and use_of (written by
 * the campaign's thread, read here) and bus_reported_at (written here), writes through
 * tacet_debug_write with a buffer of its own (stdio is the campaign's), and sleeps on a
 * notification of its own (lib's tacet_sleep_ns is the campaign's). */
static volatile uint64_t use_started; /* ns; 0: no use under way */
static struct driver *volatile use_of; /* the driver of that use, written before it */
static volatile uint64_t bus_reported_at; /* ns: the watcher's last report of pci */
static char watcher_stack[2 * TACET_PAGE_SIZE] __attribute__((aligned(16)));

static void watcher_say_threads(uint64_t took_ns)
{
	struct tacet_thread_info ti;
	char line[160];
	int n = snprintf(line, sizeof(line), "faults: a use has taken %llu ms; threads (tid "
			 "process hart priority state):", (unsigned long long)(took_ns / 1000000));

	tacet_debug_write(line, (unsigned long)n);
	for (unsigned long i = 0; tacet_info(TACET_INFO_THREAD, i, &ti, sizeof(ti)) > 0; i++) {
		n = snprintf(line, sizeof(line), " %u %.16s %u %u %u;", ti.tid, ti.process, ti.hart,
			     ti.priority, ti.state);
		tacet_debug_write(line, (unsigned long)n);
	}
	tacet_debug_write("\n", 1);
}

/* pci reported by the watcher (report_stuck's, through a slot of its own), said in a line. */
static void watcher_report(struct driver *bus, const struct driver *d, uint64_t took_ns)
{
	unsigned long instance = 0;
	char line[96];
	int n;

	if (tacet_lookup_instance(bus->service, SLOT_WATCH_LOOKUP, 0, &instance) == 0 &&
	    tacet_report_stuck(bus->service, instance) == 0)
		__atomic_fetch_add(&bus->reports, 1, __ATOMIC_RELAXED);
	tacet_cap_delete(SLOT_WATCH_LOOKUP);
	bus_reported_at = tacet_time_ns();
	n = snprintf(line, sizeof(line), "faults: a use of %s has taken %llu ms: %s reported\n",
		     d->process, (unsigned long long)(took_ns / 1000000), bus->process);
	tacet_debug_write(line, (unsigned long)n);
}

static struct driver *bus_of(const struct driver *d);

static void watcher(void *unused)
{
	uint64_t said_for = 0, reported_for = 0;

	(void)unused;
	for (;;) {
		uint64_t started = use_started;
		struct driver *d = use_of, *bus = d ? bus_of(d) : NULL;

		tacet_timer_set(SLOT_WATCH, 1, tacet_time() + tacet_ns_to_ticks(WATCH_NS));
		tacet_wait(SLOT_WATCH);
		if (!started || started != use_started)
			continue; /* that use has returned */
		if (started != said_for && tacet_time_ns() - started > SLOW_USE_NS) {
			watcher_say_threads(tacet_time_ns() - started);
			said_for = started;
		}
		if (bus && started != reported_for && tacet_time_ns() - started > BUS_STUCK_NS) {
			watcher_report(bus, d, tacet_time_ns() - started);
			reported_for = started;
		}
	}
}

/* The watcher, on this hart at this thread's priority (no thread may make one more urgent
 * than itself): it runs while the campaign waits in a use. */
static long start_watcher(void)
{
	struct tacet_self self = { 0 };
	long err = tacet_ntfn_new(SLOT_WATCH);

	tacet_self(&self);
	if (err)
		return err;
	err = tacet_thread_start(watcher, NULL, (unsigned long)watcher_stack + sizeof(watcher_stack),
				 TACET_SCHED(self.prio, self.hart));
	return err < 0 ? err : 0; /* else its thread id */
}

/* The catcher: a thread of the campaign on the drivers' hart, more urgent than they are, which
 * throws a fault into a driver's thread while the campaign uses that driver, at a moment its
 * work is under way (TACET_INJECT_BUSY: the kernel accepts only a thread an interrupt took off
 * its hart; the catcher's own timer is that interrupt, after a random pause). It shares `catch`
 * with the campaign's thread: the campaign writes the fault and arms it (CATCH_ARMED, then
 * CATCH_GO); the catcher alone moves it to THROWN (the fault's result in `result`, written
 * first); the campaign cancels an armed one (CANCEL, then CATCH_GO) and waits for the catcher
 * to say IDLE or THROWN (it may have thrown it meanwhile). Only the state word changes
 * concurrently: loads and stores of it are atomic, the rest is written before the state that
 * publishes it. The catcher uses no stdio and none of lib's sleeps (the campaign's). */
enum catch_state { CATCH_IDLE, CATCH_ARMED, CATCH_THROWN, CATCH_CANCEL };
static struct {
	unsigned long op, where, value;
	unsigned int tid;
	long result;
	unsigned long found; /* the injector's TACET_INJECT_FOUND_* */
	int state;           /* enum catch_state */
} catch;
static uint64_t catch_pauses = 0x2545f4914f6cdd1dull; /* the catcher's own generator */
static char catcher_stack[2 * TACET_PAGE_SIZE] __attribute__((aligned(16)));

static void catcher(void *unused)
{
	(void)unused;
	for (;;) {
		int state;
		long r;

		tacet_wait(SLOT_CATCH);
		state = __atomic_load_n(&catch.state, __ATOMIC_ACQUIRE);
		if (state == CATCH_CANCEL)
			__atomic_store_n(&catch.state, CATCH_IDLE, __ATOMIC_RELEASE);
		if (state != CATCH_ARMED)
			continue;
		r = tacet_inject_found(catch.op | TACET_INJECT_BUSY, TACET_CHILD_TRACE, catch.tid,
				       catch.where, catch.value, &catch.found);
		if (r != -TACET_EBUSY) {
			catch.result = r;
			__atomic_store_n(&catch.state, CATCH_THROWN, __ATOMIC_RELEASE);
			continue;
		}
		tacet_timer_set(SLOT_CATCH, CATCH_TIMER, tacet_time() + tacet_ns_to_ticks(
					xorshift64(&catch_pauses) % CATCH_PAUSE_NS));
	}
}

static long start_catcher(void)
{
	struct tacet_self self = { 0 };
	long err = tacet_ntfn_new(SLOT_CATCH);

	tacet_self(&self);
	if (err)
		return err;
	err = tacet_thread_start(catcher, NULL, (unsigned long)catcher_stack + sizeof(catcher_stack),
				 TACET_SCHED(self.prio, CATCH_HART));
	return err < 0 ? err : 0; /* else its thread id */
}

/* The fault (op, where, value) into thread tid of d, thrown by the catcher while the campaign
 * uses d, up to CATCH_USES times: where it struck (the injector's answer, what it found there
 * into *found), or -TACET_EBUSY if the catcher never caught d at work; *err is the last use's
 * answer (the first the fault may have touched) and *start when it began. */
static long throw_at_work(struct driver *d, unsigned long op, unsigned int tid, unsigned long where,
			  unsigned long value, unsigned long *found, long *err, uint64_t *start)
{
	int armed = CATCH_ARMED;

	catch.op = op, catch.tid = tid, catch.where = where, catch.value = value;
	__atomic_store_n(&catch.state, CATCH_ARMED, __ATOMIC_RELEASE);
	tacet_signal(SLOT_CATCH, CATCH_GO);
	for (unsigned int i = 0; i < CATCH_USES &&
	     __atomic_load_n(&catch.state, __ATOMIC_ACQUIRE) == CATCH_ARMED; i++) {
		*start = tacet_time_ns();
		use_of = d; /* watched as recover's are: the use the fault strikes may not return */
		use_started = *start;
		*err = d->use(d);
		use_started = 0;
	}
	if (__atomic_compare_exchange_n(&catch.state, &armed, CATCH_CANCEL, 0, __ATOMIC_ACQ_REL,
					__ATOMIC_ACQUIRE)) {
		tacet_signal(SLOT_CATCH, CATCH_GO);
		while (__atomic_load_n(&catch.state, __ATOMIC_ACQUIRE) == CATCH_CANCEL)
			tacet_sleep_ns(RETRY_NS / 10);
	}
	if (__atomic_load_n(&catch.state, __ATOMIC_ACQUIRE) != CATCH_THROWN)
		return -TACET_EBUSY;
	*found = catch.found;
	__atomic_store_n(&catch.state, CATCH_IDLE, __ATOMIC_RELEASE);
	return catch.result;
}

static int chose(char letter);

/* With pci chosen, pci itself for pci and for each driver behind it (BEHIND_PCI): a pci that
 * answers its question but no longer releases or grants their functions (a fault into its
 * session handling) leaves them unable to claim, and only its end brings them back. NULL
 * otherwise. */
static struct driver *bus_of(const struct driver *d)
{
	if (!chose('p') || (d->letter != 'p' && !strchr(BEHIND_PCI, d->letter)))
		return NULL;
	for (unsigned int i = 0; i < NDRIVERS; i++)
		if (drivers[i].letter == 'p')
			return &drivers[i];
	return NULL;
}

/* Use d until it answers well, up to RECOVER_NS (reporting it to init once it has answered
 * with errors for STUCK_NS, and pci, bus_of(d), once it has for BUS_STUCK_NS, or once one use
 * has not returned for that long: the watcher's report): NONE, ERROR or
 * MISMATCH (what the errors were; how many in *errors), or UNRECOVERED. pci is reported only
 * then: before, errors are the drivers behind it claiming again from its next instance. */
static enum outcome recover(struct driver *d, unsigned long *errors)
{
	uint64_t start = tacet_time_ns();
	enum outcome worst = NONE;
	int reported = d->letter == 'p', bus_reported = 0; /* pci: its bus report below */
	struct driver *bus = bus_of(d);

	for (*errors = 0;; ++*errors) {
		long err;

		use_of = d;
		use_started = tacet_time_ns();
		err = d->use(d);
		use_started = 0;

		if (!err)
			return worst;
		worst = err == MISMATCH_ERR ? MISMATCH : worst == MISMATCH ? MISMATCH : ERROR;
		if (tacet_time_ns() - start > RECOVER_NS)
			return UNRECOVERED;
		if (!reported && tacet_time_ns() - start > STUCK_NS) {
			report_stuck(d);
			reported = 1;
		}
		if (bus && !bus_reported && tacet_time_ns() - start > BUS_STUCK_NS) {
			if (bus_reported_at < start) /* else the watcher has, during a use */
				report_stuck(bus);
			bus_reported = 1;
		}
		tacet_sleep_ns(RETRY_NS);
	}
}

/* d used until it answers well (recover): RESTART if another instance answers than the one
 * whose thread was `tid`. Its thread is kept for the next use. */
static enum outcome use_after(struct driver *d, unsigned int tid, unsigned long *errors)
{
	enum outcome got = recover(d, errors);
	unsigned int now = target_thread(d->process);

	if (got != UNRECOVERED && got != MISMATCH && now != tid)
		got = RESTART;
	d->tid = now;
	return got;
}

/* After a fault into net (d), once it answers its calls: its data path, which its calls do not
 * use, must carry the host's TCP stream again before the next fault (ip takes STREAM_MOVED
 * frames from net0: ip_rx), else TCP's retransmissions would be lost to the next restarts too
 * and its back-off grow without bound. A stream still for STREAM_STUCK_NS has the instance
 * reported to init (INIT_STUCK: a fault can stop net's frames and leave its service loop
 * answering); still for STREAM_WAIT_NS, the fault is unrecovered. got, RESTART if another
 * instance answers now than the one whose thread was `tid`, or UNRECOVERED. */
#define STREAM_MOVED 16
#define STREAM_STUCK_NS 10000000000ull
#define STREAM_WAIT_NS 30000000000ull
static enum outcome stream_after(struct driver *d, unsigned int tid, enum outcome got)
{
	uint64_t start = tacet_time_ns(), from = ip_rx();
	int reported = 0;
	unsigned int now;

	while (ip_rx() < from + STREAM_MOVED) {
		if (tacet_time_ns() - start > STREAM_WAIT_NS) {
			printf("faults: the TCP stream through net0 has not moved for %llu s\n",
			       (unsigned long long)(STREAM_WAIT_NS / 1000000000));
			return UNRECOVERED;
		}
		if (!reported && tacet_time_ns() - start > STREAM_STUCK_NS) {
			report_stuck(d);
			reported = 1;
		}
		tacet_sleep_ns(2 * RETRY_NS);
	}
	now = target_thread(d->process);
	if ((got == NONE || got == ERROR) && now != tid)
		got = RESTART;
	d->tid = now;
	return got;
}

/* A latent fault of d (an earlier fault's), found after fault k: said in a line of its own,
 * `faults: latent DRIVER after #K -> OUTCOME (E errors)`. */
static void latent(struct driver *d, long k, enum outcome got, unsigned long errors)
{
	d->latent++;
	printf("faults: latent %s after #%ld -> %s (%lu errors)\n", d->process, k,
	       outcome_names[got], errors);
}

/* Every chosen driver but `but` once, after fault k (k < 0: outside the campaign's faults,
 * nothing counted): an error or a restart there, or since its last use, is a latent fault's;
 * returns how many did not answer well again. */
static unsigned long round_of_uses(const struct driver *but, long k)
{
	unsigned long unrecovered = 0;

	for (unsigned int i = 0; i < nchosen; i++) {
		struct driver *d = chosen[i];
		unsigned long errors;
		enum outcome got;

		if (d == but)
			continue;
		got = use_after(d, d->tid, &errors);
		unrecovered += got == UNRECOVERED;
		if (k >= 0 && (got != NONE || errors))
			latent(d, k, got, errors);
	}
	return unrecovered;
}

/* A fault as the generator draws it: the driver, type, mode and the injector's arguments. */
struct fault {
	struct driver *d;
	enum type t;
	enum mode m;
	unsigned long op, where, value;
};

static struct fault draw(void)
{
	struct fault f = { .d = chosen[pick() % nchosen] };

	f.t = (enum type)(pick() % types_drawn);
	f.m = (enum mode)(pick() % MODES);
	f.op = fault_args(f.t, &f.where, &f.value) | inject_flags;
	return f;
}

/* Why the injector refused a fault (the campaign's words for its codes). */
static const char *refusal(long r)
{
	return r == -TACET_ENODEV ? "DMA: what the device is given, and no IOMMU confines it"
				  : tacet_strerror(r);
}

/* Fault k: thrown at a random chosen driver, at rest (where it waits for work) or at work
 * (the catcher's), then that driver used until it answers well, then the others once; returns
 * its time to a working driver (us), the outcome into *o, and adds the others that did not
 * answer well again to *latent_unrecovered. With the `d` option, a fault into a word pinned
 * for DMA says ` dma-pinned` on its line, one into a DMA address ` dma-address` (the injector's
 * TACET_INJECT_FOUND_*; without the option it refuses them: skipped). */
static uint64_t one_fault(unsigned long k, enum outcome *o, unsigned long *latent_unrecovered)
{
	struct fault f = draw();
	struct driver *d = f.d;
	enum type t = f.t;
	enum mode m = f.m;
	unsigned long errors = 0, found = 0;
	unsigned int tid = target_thread(d->process);
	const char *at = m == AT_WORK ? " at-work" : "";
	uint64_t start = tacet_time_ns(), took;
	long r, first = 0;
	enum outcome got;

	if (tid != d->tid)
		latent(d, (long)k - 1, RESTART, 0); /* restarted since its last use */
	if (!tid)
		r = -TACET_ENOENT;
	else if (m == AT_WORK)
		r = throw_at_work(d, f.op, tid, f.where, f.value, &found, &first, &start);
	else
		r = target_inject_found(f.op, tid, f.where, f.value, INJECT_TRIES, &found);
	d->faults[m][t]++;
	if (r < 0) {
		*o = SKIPPED;
		d->outcomes[m][SKIPPED]++;
		d->tid = target_thread(d->process);
		printf("faults: #%lu %s %s%s -> skipped (%s)\n", k, d->process, type_names[t], at,
		       refusal(r));
		return 0;
	}
	got = use_after(d, tid, &errors);
	if (first && got == NONE) /* the use the fault struck in answered badly */
		got = first == MISMATCH_ERR ? MISMATCH : ERROR;
	errors += first != 0;
	if (d->letter == 'n' && got != UNRECOVERED)
		got = stream_after(d, tid, got); /* its data path too: the time includes it */
	took = (tacet_time_ns() - start) / 1000;
	*o = got;
	d->outcomes[m][got]++;
	printf("faults: #%lu %s %s where=%#lx value=%#lx%s%s%s -> %s in %llu us (%lu errors)\n",
	       k, d->process, type_names[t], (unsigned long)r, f.value,
	       found & TACET_INJECT_FOUND_PINNED ? " dma-pinned" : "",
	       found & TACET_INJECT_FOUND_DMA_ADDRESS ? " dma-address" : "", at,
	       outcome_names[got], (unsigned long long)took, errors);
	*latent_unrecovered += round_of_uses(d, (long)k);
	return took;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The options after `N.SEED.DRIVERS`, each after a dot (the name is short: init keeps 23
 * bytes): `d` (faults into what a device is given too: TACET_INJECT_DMA), `g` (garbage in a
 * reply and a driver deaf to its notification drawn too: TACET_INJECT_REPLY, _DEAF), `fK`
 * (faults K to K+N-1: the generator drawn past the first K); `p` (the virtio devices are PCI
 * functions behind the pci server), `s` (blk on rng's INTx line) and `a` (the AIA's machine)
 * are the runner's, said in the name so the log says them: the campaign is the same. 0, or
 * -TACET_EINVAL. */
static long options(const char *p, unsigned long *first)
{
	char *end;

	while (*p == '.') {
		if (p[1] == 'd') {
			inject_flags |= TACET_INJECT_DMA;
			p += 2;
		} else if (p[1] == 'g') {
			types_drawn = TYPES;
			p += 2;
		} else if (p[1] == 'p' || p[1] == 's' || p[1] == 'a') {
			p += 2;
		} else if (p[1] == 'f') {
			*first = strtoul(p + 2, &end, 10);
			p = end;
		} else {
			return -TACET_EINVAL;
		}
	}
	return *p ? -TACET_EINVAL : 0;
}

/* `N.SEED.DRIVERS[.OPTION...]` from the name init.run= grants: 0, or -TACET_EINVAL. */
static long parameters(unsigned long *n, unsigned long *first)
{
	const char *p = tacet_service_name();
	char *end;

	*n = strtoul(p, &end, 10);
	if (*end != '.')
		return -TACET_EINVAL;
	pick_state = strtoull(end + 1, &end, 10) * 0x9e3779b97f4a7c15ull + 1;
	client_state = pick_state ^ 0x5851f42d4c957f2dull;
	if (*end != '.')
		return -TACET_EINVAL;
	for (p = end + 1; *p && *p != '.'; p++)
		for (unsigned int i = 0; i < NDRIVERS; i++)
			if (drivers[i].letter == *p && nchosen < NDRIVERS)
				chosen[nchosen++] = &drivers[i];
	return nchosen ? options(p, first) : -TACET_EINVAL;
}

/* Did the parameters name the driver of this letter? */
static int chose(char letter)
{
	for (unsigned int i = 0; i < nchosen; i++)
		if (chosen[i]->letter == letter)
			return 1;
	return 0;
}

/* Times to a working driver (us): all of them while they fit, then a uniform sample of
 * TIMES_KEPT (reservoir sampling, with the campaign's generator); the worst always. */
static uint64_t times[TIMES_KEPT], worst_time;
static unsigned long ntimes;

static void keep_time(uint64_t us)
{
	uint64_t slot = ntimes < TIMES_KEPT ? ntimes : next() % (ntimes + 1);

	if (slot < TIMES_KEPT)
		times[slot] = us;
	worst_time = us > worst_time ? us : worst_time;
	ntimes++;
}

static void print_totals(unsigned long n, uint64_t secs_us)
{
	static const char *const mode_names[MODES] = { "at rest", "at work" };
	unsigned long kept = ntimes < TIMES_KEPT ? ntimes : TIMES_KEPT;
	unsigned long total[OUTCOMES] = { 0 };

	for (unsigned int i = 0; i < nchosen; i++) {
		struct driver *d = chosen[i];

		for (unsigned int m = 0; m < MODES; m++) {
			printf("faults: %s %s:", d->process, mode_names[m]);
			for (unsigned int t = 0; t < TYPES; t++)
				printf(" %s %lu", type_names[t], d->faults[m][t]);
			printf(";");
			for (unsigned int o = 0; o < OUTCOMES; o++) {
				printf(" %s %lu", outcome_names[o], d->outcomes[m][o]);
				total[o] += d->outcomes[m][o];
			}
			printf("\n");
		}
		printf("faults: %s: latent %lu; reported %lu\n", d->process, d->latent, d->reports);
	}
	qsort(times, kept, sizeof(*times), cmp_u64);
	printf("faults: %lu faults in %llu ms (%llu a second):", n,
	       (unsigned long long)(secs_us / 1000),
	       (unsigned long long)(secs_us ? n * 1000000ull / secs_us : 0));
	for (unsigned int o = 0; o < OUTCOMES; o++)
		printf(" %s %lu", outcome_names[o], total[o]);
	printf("; time to a working driver after a restart or error: median %llu us, worst %llu "
	       "us (%lu)\n", (unsigned long long)(kept ? times[kept / 2] : 0),
	       (unsigned long long)worst_time, ntimes);
}

#define SETTLE_NS 100000000ull /* memory not back yet: looked at again this much later... */
#define SETTLE_TRIES 10        /* ...up to this many times */

/* After the campaign: each driver answers, memory is back (within a second). 0 if all is
 * well. */
static int final_checks(const struct tacet_mem_info *before, unsigned long unrecovered)
{
	struct tacet_mem_info after;
	int failed = 0, same;

	for (unsigned int i = 0; i < ALARM_EVERY; i++)
		round_of_uses(NULL, -1); /* an alarm's session open again, as at the baseline */
	for (unsigned int i = 0; i < nchosen; i++) {
		unsigned long errors;
		int ok = recover(chosen[i], &errors) == NONE;

		printf("faults: %s answers at the end: %s\n", chosen[i]->process, ok ? "PASS" : "FAIL");
		failed |= !ok;
	}
	if (chose('n')) { /* after TCP's back-off, the host's stream comes through again */
		uint64_t took = stream_flows(ip_rx(), STREAM_RESUME_NS);

		printf("faults: the TCP stream through net0 flows again after the last fault (in %llu "
		       "ms): %s\n", (unsigned long long)(took / 1000000), took ? "PASS" : "FAIL");
		failed |= !took;
	}
	for (unsigned int waited = 0;; waited++) { /* a restart's last steps may still be under way */
		tacet_info(TACET_INFO_MEM, 0, &after, sizeof(after));
		/* back: no page and no object more in use than at the baseline (one fewer is an
		 * object some server held then for a while, not a leak) */
		same = before->free_pages + before->kernel_object_pages <=
			       after.free_pages + after.kernel_object_pages &&
		       before->kernel_objects >= after.kernel_objects;
		if (same || waited == SETTLE_TRIES)
			break;
		tacet_sleep_ns(SETTLE_NS);
	}
	printf("faults: memory: free pages %lu -> %lu (object caches %lu -> %lu), kernel objects %lu "
	       "-> %lu: %s\n", before->free_pages, after.free_pages, before->kernel_object_pages,
	       after.kernel_object_pages, before->kernel_objects, after.kernel_objects,
	       same ? "PASS" : "FAIL");
	printf("faults: unrecovered: %lu: %s\n", unrecovered, unrecovered ? "FAIL" : "PASS");
	printf("faults: blk reads whose seal failed (the client told): %lu\n", seal_failures);
	printf("faults: blk waits that failed with the request still held by lib: %lu; writes "
	       "whose buffer changed before they completed: %lu\n", held_by_lib, buffer_changed);
	printf("faults: blk requests lib still holds at the end: %#x: %s\n", blk.busy,
	       blk.busy ? "FAIL" : "PASS");
	printf("faults: silent blk mismatches: %lu: %s\n", mismatches, mismatches ? "FAIL" : "PASS");
	printf("faults: rtc's clock moved by a fault: %lu times\n", clock_moves);
	/* a device told too long a length writes upward from its frame: through DMA frames only */
	printf("faults: memory's two sides: kernel and frames below %#lx, DMA frames from %#lx, "
	       "met %lu times: %s\n", after.low_end, after.dma_start, after.sides_met,
	       after.sides_met ? "FAIL" : "PASS");
	return failed || !same || unrecovered || mismatches || after.sides_met || blk.busy;
}

int main(void)
{
	unsigned long n = 0, first = 0, unrecovered = 0;
	struct tacet_mem_info before;
	uint64_t start;
	long err = parameters(&n, &first);
	int failed;

	if (!err)
		err = tacet_ntfn_new(SLOT_ALARM);
	if (!err)
		err = start_watcher();
	if (!err)
		err = start_catcher();
	for (uint64_t until = tacet_time_ns() + RECOVER_NS; !err && chose('b');) {
		err = tacet_blk_open(&blk, BLK_SECTOR, 5000); /* blk may restart meanwhile */
		if (err != -TACET_EDEAD || tacet_time_ns() > until)
			break;
		err = 0;
		tacet_sleep_ns(RETRY_NS);
	}
	if (err || (chose('b') && blk.sectors < SHADOW_SECTORS)) {
		printf("faults: cannot start (\"%s\": %s)\nfaults: FAIL\n", tacet_service_name(),
		       tacet_strerror(err));
		tacet_poweroff(1);
		return 1;
	}
	blk.timeout_ns = BLK_TIMEOUT_NS; /* then lib tells init (tacet_report_stuck) */
	for (unsigned int s = 0; s < SHADOW_SECTORS && blk.sectors && !err; s++) {
		memset((void *)blk.buf.va, (int)s, BLK_SEAL_DATA);
		err = blk_write_sealed(s); /* every sector sealed before its first read */
	}
	if (err) {
		printf("faults: cannot seal blk's sectors: %s\nfaults: FAIL\n",
		       tacet_strerror(err));
		tacet_poweroff(1);
		return 1;
	}
	for (unsigned int i = 0; i < ALARM_EVERY; i++)
		round_of_uses(NULL, -1); /* every driver answering, an alarm's session open... */
	tacet_sleep_ns(RETRY_NS); /* ...lib's sleep notification made... */
	for (unsigned int s = 0; s < SHADOW_SECTORS && blk.sectors; s++)
		if (!known[s] && !blk_one(BLK_READ, blk.first + s) &&
		    !blk_seal_check((void *)blk.buf.va, blk.first + s, 1, sealed_gen[s], NULL,
				    NULL)) {
			memcpy(shadow[s], (void *)blk.buf.va, BLK_SECTOR);
			known[s] = 1;
		} /* ...the blk shadow's sectors filled, before the baseline */
	if (chose('n') && !stream_flows(0, RECOVER_NS)) {
		printf("faults: no TCP stream through net0\nfaults: FAIL\n");
		tacet_poweroff(1);
		return 1;
	}
	tacet_info(TACET_INFO_MEM, 0, &before, sizeof(before));
	printf("faults: %lu faults into %u drivers, seed \"%s\"\n", n, nchosen,
	       tacet_service_name());
	for (unsigned long k = 0; k < first; k++)
		draw(); /* the faults before the first: drawn, not thrown */
	start = tacet_time_ns();
	for (unsigned long k = first; k < first + n; k++) {
		enum outcome o;
		uint64_t took = one_fault(k, &o, &unrecovered);

		unrecovered += o == UNRECOVERED;
		if (o == RESTART || o == ERROR)
			keep_time(took);
	}
	print_totals(n, (tacet_time_ns() - start) / 1000);
	failed = final_checks(&before, unrecovered);
	printf("faults: %s\n", failed ? "FAIL" : "PASS");
	tacet_poweroff(failed);
	return failed;
}
