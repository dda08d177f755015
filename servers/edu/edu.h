/* edu.h: the edu interrupt test (edu.c), which the edu and edu_flood servers run with their
 * own settings. */
#ifndef EDU_EDU_H
#define EDU_EDU_H

/* Raises `rounds` interrupts one at a time and checks each is handled exactly once. With
 * move_every > 0, in every move_every interrupts the line moves to another hart and back, each
 * time while one is in flight, and the per-hart counts are checked (edu.c). Returns main()'s
 * exit status. */
int edu_test(unsigned long rounds, unsigned long move_every);

#endif
