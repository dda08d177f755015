# Host unit tests of the kernel's printf-style formatter.
HOST_TESTS += kfmt
HOST_SRCS_kfmt := kernel/lib/kfmt.c
