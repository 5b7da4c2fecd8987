#ifndef UIBUS_CLINUX_SHIM_H
#define UIBUS_CLINUX_SHIM_H
/* Linux interfaces Glibc's Swift module does not import. */
#include <sys/signalfd.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <linux/input.h>
/* openpty: tests stand a pseudo-terminal in for a device whose reads start failing. */
#include <pty.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <malloc.h>
/* eventfd: a subscriber's warden wakes its owner for the messages it took off the socket. */
#include <sys/eventfd.h>

/* The evdev ioctls are function-like macros, which Swift does not import. */

/* EVIOCGABS(axis): reads one absolute axis's range into `info`. Returns ioctl's result. */
static inline int clinux_eviocgabs(int fd, unsigned int axis, struct input_absinfo *info) {
    return ioctl(fd, EVIOCGABS(axis), info);
}

/* EVIOCGNAME(len): reads the device's name into `name` (`length` bytes). Returns ioctl's result. */
static inline int clinux_eviocgname(int fd, char *name, unsigned int length) {
    return ioctl(fd, EVIOCGNAME(length), name);
}

/* sched_setaffinity(2) for one thread: glibc declares it only under _GNU_SOURCE, so the system call
 * is made directly. `mask` is `bytes` bytes of core bits (bit n = core n). Returns 0 or -1 (errno). */
static inline int clinux_sched_setaffinity(int tid, size_t bytes, const unsigned long *mask) {
    return (int)syscall(SYS_sched_setaffinity, tid, bytes, mask);
}

/* sched_getaffinity(2) for one thread, as above. Returns the bytes of `mask` the kernel filled, or -1. */
static inline int clinux_sched_getaffinity(int tid, size_t bytes, unsigned long *mask) {
    return (int)syscall(SYS_sched_getaffinity, tid, bytes, mask);
}
/* The heap in use: bytes of chunks allocated in every arena plus mmapped ones (mallinfo2). */
static inline size_t clinux_heap_in_use(void) {
    struct mallinfo2 info = mallinfo2();
    return info.uordblks + info.hblkhd;
}
#endif
