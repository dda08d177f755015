/* storm.h: the stuck goldfish RTC interrupt (storm.c), which the storm and storm_rebind
 * servers drive in their own ways. */
#ifndef TESTS_STORM_H
#define TESTS_STORM_H

enum storm_mode {
	STORM_UNHANDLED, /* nobody handles it: acknowledged "not handled" */
	STORM_REBIND,    /* not handled, and the line unbound and bound again twice on the way
			  * (once after an ack, once owing one): still disabled at the same count,
			  * and bound again once disabled it stays disabled */
};

/* Binds the line, makes the RTC's interrupt stay asserted, acknowledges as mode says until the
 * kernel disables the line (checking that acks then return TACET_EDISABLED), then clears the
 * device and turns the line back on. Prints
 * `storm: WHAT: ...: PASS` lines; returns main()'s exit status. */
int storm_run(enum storm_mode mode);

#endif
