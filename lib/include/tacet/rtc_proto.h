/* rtc_proto.h: the real-time clock's IPC protocol (servers/rtc publishes it as "rtc", with
 * GRANT so that a client can send a notification for its alarm, each client's copy badged).
 * lib/proto/rtc.proto describes the messages, from which the stubs and the server's dispatch
 * are generated; lib's client: tacet_rtc_time, tacet_rtc_alarm (<tacet/rtc.h>). A message with
 * another word count, or a capability where none is expected (none where one is), gets
 * -TACET_EINVAL.
 *
 *   RTC_TIME (0 words): reply w0 = the time of day, nanoseconds since 1970-01-01 00:00 UTC
 *       (the host's clock on QEMU), or a negative TACET_E* code.
 *   RTC_OPEN + a capability to the caller's own process without rights: opens the caller's
 *       session (a badge's; <tacet/session.h>), ending the one it had with its alarms. When
 *       the process ends its session ends: its alarms are forgotten. Reply w0: 0, or
 *       -TACET_EPERM (not a rights-less process capability, or an unbadged caller),
 *       -TACET_EBUSY (the process has four watchers), -TACET_ENOMEM.
 *   RTC_ALARM (at, bits) + a notification capability (TACET_TAG_CAP; WRITE is enough): when
 *       the time of day reaches `at` (ns since the epoch), the server signals `bits` on the
 *       notification, once, and forgets it. An `at` already past fires at once. Up to
 *       RTC_ALARMS_MAX alarms are pending at a time, all clients together. Reply w0: 0,
 *       -TACET_EINVAL (no capability, or bits 0 or with bit 63, or no session open),
 *       -TACET_EBUSY (the table is full).
 */
#ifndef TACET_RTC_PROTO_H
#define TACET_RTC_PROTO_H

#define RTC_TIME  0x20
#define RTC_ALARM 0x21
#define RTC_OPEN  0x22
#define RTC_ALARMS_MAX 8

#endif
