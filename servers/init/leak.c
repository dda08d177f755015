/* leak.c: init's check, once every server has ended for good, that every page and kernel
 * object is back: the supervisor's, at the end. */
#include <stdio.h>
#include "init.h"

/* Every server's process has ended, and the service thread has withdrawn every name: drop what
 * init held for them; then every page and kernel object must be back (the object caches keep
 * their pages, so those count as free). The kernel signals the end after it has released the
 * process, so one look is enough. */
void leak_check(const struct tacet_mem_info *before)
{
	struct tacet_mem_info after;
	int same;

	for (unsigned int i = 0; i < nservers; i++)
		tacet_cap_delete(servers[i].process_slot);
	if (tacet_info(TACET_INFO_MEM, 0, &after, sizeof(after)) < 0)
		return;
	same = before->free_pages + before->kernel_object_pages ==
		       after.free_pages + after.kernel_object_pages &&
	       before->kernel_objects == after.kernel_objects;
	printf("init: leak check: free pages %lu -> %lu (object caches %lu -> %lu), kernel objects "
	       "%lu -> %lu: %s\n", before->free_pages, after.free_pages, before->kernel_object_pages,
	       after.kernel_object_pages, before->kernel_objects, after.kernel_objects,
	       same ? "PASS" : "FAIL");
}
