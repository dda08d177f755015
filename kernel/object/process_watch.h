/* process_watch.h: PROCESS_WATCH's records: which notifications a process's end signals. A
 * record links one process and one notification: it is on the process's list (at most
 * PROCESS_WATCHERS) and on the notification's (as many as processes it watches), and holds no
 * reference on either: the first of three ends frees it (the process's end signals and frees
 * its records; the notification's end frees its own, PROCESS_WATCH_STEP a step; badge 0 frees
 * one). BKL held. Called from process.c and notification.c. */
#ifndef KERNEL_PROCESS_WATCH_H
#define KERNEL_PROCESS_WATCH_H

#include <stdbool.h>
#include <stdint.h>
#include "lib/list.h"

struct account;
struct notification;

#define PROCESS_WATCHERS 4    /* records a process takes: its parent, a PCI server, ... */
#define PROCESS_WATCH_STEP 16 /* records a notification's end frees in one step */

struct process_watch {
	struct list_node proc_link; /* on the watched process's watches */
	struct list_node ntfn_link; /* on ntfn->process_watches */
	struct notification *ntfn;  /* signalled badge at the process's end */
	uint64_t badge;
	struct account *acct;       /* the watcher's, charged for the record (a reference) */
};

/* The record of n on the process whose watches list is `watches`, or NULL. */
struct process_watch *process_watch_find(struct list_node *watches, struct notification *n);
/* Whether one more record fits on `watches` (fewer than PROCESS_WATCHERS). */
bool process_watch_room(struct list_node *watches);
/* A new record, charged to acct, on no list; NULL when out of memory (or budget). */
struct process_watch *process_watch_new(struct account *acct);
/* w (from process_watch_new) links n to the process whose list is `watches`. */
void process_watch_link(struct process_watch *w, struct list_node *watches,
			struct notification *n, uint64_t badge);
/* w off both lists, its charge back. */
void process_watch_free(struct process_watch *w);
/* The process's end: its records freed (at most PROCESS_WATCHERS: bounded), each one's
 * notification signalled its badge if `signal` (a process freed without ever having run, its
 * last capability gone, tells nobody). */
void process_watch_fire(struct list_node *watches, bool signal);
/* A step of a notification's end: up to PROCESS_WATCH_STEP of its records freed (their
 * processes no longer signal it); true when none is left. */
bool process_watch_unlink_step(struct list_node *ntfn_watches);

#endif
