/* rtc.h: lib's client of the "rtc" service (<tacet/rtc_proto.h>). The first call looks the
 * service up (into a slot of lib's, waiting up to a second for it to be published); a call
 * that finds the server gone (TACET_EDEAD) looks it up again, waiting for init to restart it.
 * Not thread-safe. */
#ifndef TACET_RTC_H
#define TACET_RTC_H

#include <stdint.h>

/* The time of day into *ns: nanoseconds since 1970-01-01 00:00 UTC. 0 or a TACET_E* code. */
long tacet_rtc_time(uint64_t *ns);

/* Signal `bits` on the notification in slot ntfn when the time of day reaches at_ns (ns since
 * the epoch), once. The server gets a WRITE-only copy of the capability. 0 or a TACET_E*
 * code (-TACET_EBUSY: RTC_ALARMS_MAX alarms are already pending). */
long tacet_rtc_alarm(uint64_t at_ns, unsigned long ntfn, unsigned long bits);

#endif
