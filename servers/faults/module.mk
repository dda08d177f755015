# faults: the fault injection campaign (make faults; tests/qemu/cases_faults.py), on the faults
# kernel: faults thrown into the real drivers while it uses them as their client.
SERVERS += faults
SERVER_SRCS_faults := servers/faults/faults.c servers/faults/target.c
