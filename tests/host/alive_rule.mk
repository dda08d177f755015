# alive_rule: servers/init/alive_rule.c, the liveness check's verdict on an unanswered question:
# a server that ran and wants its hart, or sat in a wait all along, is ended at its limit, one
# that never got its hart or waits in a call only after the longer limit.
HOST_TESTS += alive_rule
HOST_SRCS_alive_rule := servers/init/alive_rule.c
HOST_CFLAGS_alive_rule := -Iservers/init
HOST_DEPS_alive_rule := servers/init/alive_rule.h
