# http: lib/http.c, the HTTP/1.0 request parser and responder (no network code), linked as it
# is with the metrics renderer its /irqs and /metrics routes serve.
HOST_TESTS += http
HOST_SRCS_http := lib/http.c lib/metrics.c lib/clock.c lib/sink.c
HOST_CFLAGS_http := -Ilib/include
HOST_DEPS_http := lib/include/tacet/http.h lib/include/tacet/metrics.h lib/include/tacet/sink.h
