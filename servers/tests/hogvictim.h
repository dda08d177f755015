/* hogvictim.h: what the hog and the victim say to each other (see hog.c): the bits the hog
 * signals on the victim's notification "victim". */
#ifndef HOGVICTIM_H
#define HOGVICTIM_H

#define HOG_FRAMES   0x1ul /* the hog holds all the frames its budget allows */
#define HOG_MAPPINGS 0x2ul /* ... all the mappings */
#define HOG_THREADS  0x4ul /* ... all the threads */
#define HOG_QUIT     0x8ul /* the hog is done */

#endif
