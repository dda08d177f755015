/* tacet/random.h: random bytes from the entropy service ("rng", servers/rng: the virtio-rng
 * driver), <tacet/rng_proto.h> over IPC. The first call looks the service up into slot
 * TACET_CHILD_RNG (waiting up to a second for it to be published); a call that finds the
 * service ended waits for init to restart it and goes on. Not thread-safe. */
#ifndef TACET_RANDOM_H
#define TACET_RANDOM_H

/* Fill buf with len random bytes. Returns len, or a negative TACET_E* code (-TACET_ENOENT: no
 * entropy service); on failure some of buf may have been written. */
long tacet_random(void *buf, unsigned long len);

struct tacet_rng_stats {
	unsigned long completed;  /* device requests completed */
	unsigned long in_flight;  /* requests the device holds now */
	unsigned long irqs;       /* interrupts the driver handled */
	unsigned long line_count; /* the kernel's count on the line, less those not handled */
};

/* The service's counters (RNG_STATS). 0 or a negative TACET_E* code. */
long tacet_random_stats(struct tacet_rng_stats *stats);

#endif
