# Host unit tests of physical range arithmetic and the page pool.
HOST_TESTS += page_alloc
HOST_SRCS_page_alloc := kernel/mm/page_alloc.c
