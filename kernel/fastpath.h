/* fastpath.h: the IPC fast paths for call and reply_recv (see fastpath.c). */
#ifndef KERNEL_FASTPATH_H
#define KERNEL_FASTPATH_H

struct hart;
struct thread;

/* Return 1 if the call was done and this hart now runs another thread; 0 for the slow path. */
int fastpath_call(struct hart *me, struct thread *t);
int fastpath_reply_recv(struct hart *me, struct thread *t);
int fastpath_signal(struct hart *me, struct thread *t);

#endif
