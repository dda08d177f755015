# ilist.mk: host tests of the intrusive lists (kernel/list.h) and the indexed list with its
# cursor (kernel/ilist.c), which the thread listing (TACET_INFO_THREAD) walks.
HOST_TESTS += ilist
HOST_SRCS_ilist := kernel/ilist.c
