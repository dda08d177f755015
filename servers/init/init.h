/* init.h: what init's files share: the servers init.run= names (struct server), the name table,
 * the capability slot ranges, and each file's entry points. Who owns which piece of state, and
 * which thread writes it, is said at the top of supervisor.c; nothing here is locked. */
#ifndef INIT_H
#define INIT_H

#include <stdint.h>
#include <tacet.h>
#include <tacet/bootinfo.h>
#include <tacet/init_proto.h>
#include <tacet/modules.h>

#define MAX_SERVERS 16
#define MAX_NAMES 16       /* names init.run= grants, in all (each holds a slot while published) */
#define NAMES_PER_SERVER 4 /* names one server may be granted: its quota */
#define NAME_BYTES (TACET_NAME_WORDS * sizeof(unsigned long)) /* a name, its NUL included */
#define SCRATCH_VA 0x0000002000000000ul /* where init maps a page it fills for a child */
#define PROBE_VA   (SCRATCH_VA + TACET_PAGE_SIZE) /* where init maps a device to read its ID */
#define SERVER_PRIORITY 100
#define SERVICE_PRIORITY 90 /* the service thread's, unless init.service_priority= */
#define SERVICE_STACK_PAGES 2
/* the service thread's stack (and TLS block), with an unmapped page below as a guard */
#define SERVICE_STACK_VA (SCRATCH_VA + 4 * TACET_PAGE_SIZE)
#define ALIVE_STACK_PAGES 2
/* the asking threads' stacks (liveness.c), ALIVE_STACK_PAGES + 1 pages apart: each guarded */
#define ALIVE_STACK_VA (SCRATCH_VA + 8 * TACET_PAGE_SIZE)
/* init's slots, TACET_SLOT_FIRST_FREE..127, in two of lib's pools (tacet_slot_pool_use), one a
 * thread: the supervisor's below SERVICE_FIRST_SLOT, the service thread's from it (the names,
 * its receive slot, a mint). A slot allocation that fails gives a negative code, which every
 * call then refuses as a slot. */
#define INIT_SLOTS 128
#define SERVICE_FIRST_SLOT 108
/* ALIVE_FIRST_SLOT + n: what server n (a `~` entry, n < ALIVE_SERVERS_MAX) last published,
 * for its asking thread's calls: the service thread alone writes it (each publish, each end),
 * the asking thread only calls through it. Slots the kernel leaves free below its devices'
 * (<tacet/bootinfo.h>), outside both pools. */
#define ALIVE_FIRST_SLOT 7
#define ALIVE_SERVERS_MAX 8
#define SERVER_BUDGET 2048 /* pages of kernel memory per server (8 MiB), unless init.budget= */
#define POWER_OFF_MARK '^' /* before an entry's name: the server may power the machine off */
#define TRACE_MARK '%'     /* before an entry's name: the server gets the trace authority */
#define ALIVE_MARK '~'     /* `~MS` in an entry: it answers TACET_LABEL_ALIVE within MS ms */

#define NS_PER_MS 1000000ul
#define RESTART_TIMER (1ul << 62)   /* exits_slot's bit for the restart timer */
#define POWEROFF_ASKED (1ul << 61)  /* exits_slot: a server asked to power off (INIT_POWEROFF), */
#define POWEROFF_FAILED (1ul << 60) /* ...with a failure status */
#define SERVICE_GO (1ul << 62)      /* service_ntfn: every server of init.run= has started */
#define SERVICE_QUIT (1ul << 61)    /* service_ntfn: end with service_quit_status */
/* exits_slot: an asking thread asked its server whether it is alive (liveness.c); for server
 * n < ALIVE_SERVERS_MAX, the service thread heard from a client that n left a request
 * unanswered (INIT_STUCK) */
#define ALIVE_ASKED (1ul << 16)
#define ALIVE_STUCK(n) (1ul << (24 + (n)))
/* exits_slot: server n's asking thread saw it hold an interrupt of a line it has alone,
 * untaken, for ALIVE_OWN_HELD_MS in its receive (liveness.c) */
#define ALIVE_OWN_HELD(n) (1ul << (32 + (n)))
#define ALIVE_GO (1ul << 0)   /* an asking thread's notification: every server has started */
#define ALIVE_QUIT (1ul << 1) /* ...: end */
#define ALIVE_TICK (1ul << 2) /* ...: its timer, the next question */

enum server_state {
	SERVER_RUNNING,
	SERVER_WAITING, /* failed; restarted at restart_at */
	SERVER_DONE,    /* ended for good */
};

struct server {
	/* from init.run= */
	char name[TACET_MODULE_NAME_MAX];
	char names[128];   /* `=name+name...` as written: what it may publish (empty: no `=`) */
	char devices[128];
	unsigned int hart, prio;
	unsigned int restarts_max; /* `*N`: restart it up to N times after a failure */
	int power_off;             /* `^`: it may ask init to power the machine off */
	int trace;                 /* `%`: it is given the trace authority */
	char grants[64];           /* `[service=arg;...]`, without the brackets (INIT_GRANT) */
	unsigned int alive_ms;     /* `~MS`: it must answer its asking thread within MS ms (0:
				    * not asked) */
	int grants_cut;            /* ...were longer than that: INIT_GRANT answers ERANGE */
	/* the current instance */
	unsigned long process_slot;
	enum server_state state;
	long status; /* what it reported with INIT_EXIT, -TACET_EFAULT after a fault,
		      * -TACET_EDEAD if it ended without saying */
	unsigned long started_at, restart_at; /* timebase ticks */
	unsigned int restarts;      /* so far */
	unsigned int delay_ms;      /* before the last restart */
};

/* supervisor.c: the boot information, the servers, the supervisor's notification */
extern const struct tacet_bootinfo *bi;
extern struct server servers[MAX_SERVERS];
extern unsigned int nservers;
extern unsigned long exits_slot; /* notification: bit n = server n's process ended */
extern unsigned long budget;     /* init.budget=PAGES */
extern unsigned int start_failures; /* init.run= entries that could not start */

/* loader.c: a server's start */
long start_server(unsigned int id);

/* bootargs.c: init.run= and the other boot arguments */
void start_servers(void);
unsigned long boot_number(const char *arg, unsigned long dflt);

/* devices.c: matching init.run='s devices, giving them, and quieting them at a server's end */
long give_devices(unsigned int id, unsigned long child, const char *spec);
void release_devices(unsigned int id);
void quiet_devices(unsigned int id);

/* names.c: the name service (the service thread's; before SERVICE_GO, the grants) */
extern unsigned long service_ep;   /* the servers' requests; TACET_CHILD_INIT of each */
extern unsigned long service_ntfn; /* bound to the service thread: ends (bit n), GO, QUIT */
extern unsigned int service_prio;  /* init.service_priority= */
extern long service_quit_status;   /* set before SERVICE_QUIT */
long grant_names(unsigned int id);
void release_names(unsigned int id);
void names_ended(unsigned int id);
/* service.c: the service thread */
long start_service(void);
void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* liveness.c: the asking threads, and the supervisor's side of them */
long start_liveness(void);
void liveness_go(void);
void liveness_noted(unsigned long bits);
unsigned long liveness_deadline(void);
void liveness_check(void);
void liveness_published(unsigned int id, unsigned long slot);
void liveness_withdrawn(unsigned int id);
long liveness_stuck(const struct server *from, unsigned int id, const char *service,
		    unsigned long instance);

/* leak.c */
void leak_check(const struct tacet_mem_info *before);

#endif
