# ilist.mk: host tests of the intrusive lists (kernel/lib/list.h) and the indexed list with its
# cursor (kernel/lib/ilist.c), which the thread listing (TACET_INFO_THREAD) walks.
HOST_TESTS += ilist
HOST_SRCS_ilist := kernel/lib/ilist.c
