/* fake_kobj.c: kernel/object/kobj.c's kobj_new and kobj_free for the host tests that make kernel
 * objects charged to real accounts (kernel/object/account.c): kobj.c itself is left out of the
 * host build (it reaches every object type). Single-threaded; no locking. */
#include <stddef.h>
#include <stdint.h>

#include "object/account.h"
#include "object/kobj.h"

void *kobj_new(struct account *acct, size_t size, uint32_t type)
{
	struct kobj *o = account_kalloc(acct, size);

	if (!o)
		return NULL;
	*o = (struct kobj){ .type = (uint16_t)type, .acct = acct };
	if (acct)
		account_get(acct);
	return o;
}

void kobj_free(struct kobj *o, size_t size)
{
	struct account *acct = o->acct;

	account_kfree(acct, o, size);
	if (acct)
		account_put(acct);
}
