/* tacet.h: the user-space API of Tacet that servers are written against: the system calls
 * (inline, from <tacet/syscall.h>), error strings, the start argument, the console sink, and
 * the driver kit (<tacet/driver.h>).
 * The C library itself is picolibc; lib/ supplies only what is Tacet's and picolibc's hooks. */
#ifndef TACET_H
#define TACET_H

#include <tacet/abi.h>
#include <tacet/syscall.h>
#include <tacet/driver.h>
#include <tacet/session.h>

/* The a0 the process's first thread started with: for init, the address of its struct
 * tacet_bootinfo; for other servers whatever their creator passed. Set by crt0, before
 * main(). */
extern unsigned long tacet_start_arg;

/* A message for a TACET_E* code, given either negated (as calls return it) or not; an unknown
 * code gets "unknown error N". The string is static and must not be written; an unknown code
 * reuses one buffer, so that string is good until the next such call. */
const char *tacet_strerror(long err);

/* Where stdout and stderr go, a line at a time: write len bytes of buf, return how many were
 * taken (> 0) or a negative TACET_E* code. tacet_debug_write (the kernel console) at start;
 * the console server's client replaces it. Not thread-safe: switch it before starting more
 * threads. */
extern long (*tacet_console_write)(const void *buf, unsigned long len);

/* init's name service (<tacet/init_proto.h>): publish the capability in slot under name, for
 * clients to get with the rights in `how` (TACET_RIGHT_WRITE to call or signal, | GRANT if they
 * send capabilities; | INIT_BADGE_CLIENTS to tell them apart by badge); look a name up into
 * slot dst (which must be empty), trying again up to `tries` times, 1 ms apart, until it
 * appears. Return 0 or a negative TACET_E* code: a server may publish only the names its
 * init.run= entry grants it (`uart=console`; by default its module's name), -TACET_EPERM for
 * any other. */
long tacet_publish(const char *name, unsigned long slot, unsigned long how);
long tacet_lookup(const char *name, unsigned long dst, unsigned int tries);

/* Ask init to power the machine off (INIT_POWEROFF), with status 0 (success) or non-zero (the
 * exit status says failure). Only a server whose init.run= entry starts with `^` may: for it
 * this does not return; for any other it returns -TACET_EPERM and the machine runs on. (A
 * machine whose servers have all finished powers off by itself.) */
long tacet_poweroff(int status);

/* A call on the endpoint in slot failed with TACET_EDEAD: its server ended. Look name up again,
 * waiting up to `tries` ms for init to have restarted the server (<tacet/init_proto.h>: a
 * restarted server publishes its names anew), and put the endpoint found in slot in place of
 * the ended one. 0, or the lookup's error (-TACET_ENOENT: it did not come back in time), the
 * ended endpoint still in slot (its calls say -TACET_EDEAD: reconnect again). The lookup takes
 * a slot of the calling thread's pool for a moment (<tacet/slot.h>). */
long tacet_reconnect(const char *name, unsigned long slot, unsigned int tries);
/* The same two, saying which instance of the server the capability reaches (0 its first
 * start, k after k restarts: tacet_instance() on its side): a client that reconnected knows
 * the new instance lost what the dead one held for it, and redoes it (blk: resubmit). */
long tacet_lookup_instance(const char *name, unsigned long dst, unsigned int tries,
			   unsigned long *instance);
long tacet_reconnect_instance(const char *name, unsigned long slot, unsigned int tries,
			      unsigned long *instance);
/* tacet_reconnect_instance past the instance that ended (*instance on entry; the one reached
 * on return): until init has withdrawn the ended instance's names, a lookup still finds its
 * endpoint, so this looks again, a millisecond apart, up to `tries` times, until another instance
 * is reached. 0, the lookup's error, or -TACET_EDEAD (only the ended one was found). If the
 * endpoint in slot has not ended, -TACET_EDEAD was the server's own answer (a server may say
 * anything): 0 at once, the slot and *instance as they were. */
long tacet_reconnect_next(const char *name, unsigned long slot, unsigned int tries,
			  unsigned long *instance);

/* For a server that published `service` with INIT_BADGE_CLIENTS: what init.run='s entry of the
 * client whose calls carry `badge` grants it of the service (`client[service=arg]`), into arg
 * (NUL-terminated; size at least 24). 0, -TACET_ENOENT (nothing granted), or another negative
 * TACET_E* code (<tacet/init_proto.h>, INIT_GRANT). A call to init's service thread, which
 * answers below the drivers: ask once per client, not on every request. */
long tacet_grant(const char *service, unsigned long badge, char *arg, unsigned long size);
/* Tell init that instance `instance` of the service published as `name` left a request of this
 * client unanswered past its timeout while still taking calls (INIT_STUCK): if init.run= grants
 * this client the service and says `~MS` for its server, init ends that instance and restarts
 * it; the client then reconnects as after any end. 0, or why not (-TACET_EPERM: no grant, or
 * the server is not asked whether it is alive). */
long tacet_report_stuck(const char *name, unsigned long instance);

/* Send stdout/stderr to the console server from now on (looked up as "console" into slot
 * TACET_CHILD_CONSOLE, trying `tries` times). 0, or the lookup's error (output unchanged). */
long tacet_console_attach(unsigned int tries);
/* After tacet_console_attach(): flush stdout and wait until the console server has sent all of
 * it to the UART (CONSOLE_SYNC), so that text printed elsewhere afterwards (another server's
 * debug output, the kernel's) cannot be cut into it. 0 (also when not attached), or the call's
 * error. */
long tacet_console_sync(void);

#endif
