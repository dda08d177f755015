/* process_watch.c: PROCESS_WATCH's records (process_watch.h): made by the call, freed by the
 * first of the watched process's end, the notification's end, or badge 0. BKL held. */
#include "object/process_watch.h"
#include "object/account.h"
#include "object/notification.h"

struct process_watch *process_watch_find(struct list_node *watches, struct notification *n)
{
	for (struct list_node *l = watches->next; l != watches; l = l->next) {
		struct process_watch *w = list_entry(l, struct process_watch, proc_link);

		if (w->ntfn == n)
			return w;
	}
	return NULL;
}

bool process_watch_room(struct list_node *watches)
{
	unsigned int n = 0;

	for (struct list_node *l = watches->next; l != watches; l = l->next)
		n++;
	return n < PROCESS_WATCHERS;
}

struct process_watch *process_watch_new(struct account *acct)
{
	struct process_watch *w = account_kalloc(acct, sizeof(*w));

	if (w) {
		w->ntfn = NULL;
		w->acct = acct;
		account_get(acct);
		list_init(&w->proc_link);
		list_init(&w->ntfn_link);
	}
	return w;
}

void process_watch_link(struct process_watch *w, struct list_node *watches,
			struct notification *n, uint64_t badge)
{
	w->ntfn = n;
	w->badge = badge;
	list_push_back(watches, &w->proc_link);
	list_push_back(&n->process_watches, &w->ntfn_link);
}

void process_watch_free(struct process_watch *w)
{
	struct account *acct = w->acct;

	list_remove(&w->proc_link);
	list_remove(&w->ntfn_link);
	account_kfree(acct, w, sizeof(*w));
	account_put(acct);
}

void process_watch_fire(struct list_node *watches, bool signal)
{
	while (!list_empty(watches)) {
		struct process_watch *w = list_entry(watches->next, struct process_watch, proc_link);
		struct notification *n = w->ntfn;
		uint64_t badge = w->badge;

		process_watch_free(w);
		if (signal && n->obj.refs) /* (else its end is under way: nobody can wait on it) */
			notification_signal(n, badge);
	}
}

bool process_watch_unlink_step(struct list_node *ntfn_watches)
{
	for (unsigned int i = 0; i < PROCESS_WATCH_STEP && !list_empty(ntfn_watches); i++)
		process_watch_free(list_entry(ntfn_watches->next, struct process_watch, ntfn_link));
	return list_empty(ntfn_watches);
}
