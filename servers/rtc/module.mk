# rtc: the goldfish RTC driver; publishes "rtc" (init.run=rtc:goldfish-rtc). docs/drivers.md
# builds it step by step.
SERVERS += rtc
SERVER_SRCS_rtc := servers/rtc/rtc.c
