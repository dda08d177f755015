# ratelimit.mk: host tests of the log lines' rate limit (kernel/lib/ratelimit.c).
HOST_TESTS += ratelimit
HOST_SRCS_ratelimit := kernel/lib/ratelimit.c
