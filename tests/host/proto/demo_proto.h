/* demo_proto.h: the labels of tests/host/proto/demo.proto (a test protocol). */
#ifndef DEMO_PROTO_H
#define DEMO_PROTO_H

#define DEMO_PING  0x40
#define DEMO_SUM   0x41
#define DEMO_GIVE  0x42
#define DEMO_CLAIM 0x43
#define DEMO_INFO  0x44
#define DEMO_MAYBE 0x45

#endif
