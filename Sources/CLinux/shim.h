#ifndef UIBUS_CLINUX_SHIM_H
#define UIBUS_CLINUX_SHIM_H
/* Linux interfaces Glibc's Swift module does not import. */
#include <sys/signalfd.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <linux/input.h>

/* The evdev ioctls are function-like macros, which Swift does not import. */

/* EVIOCGABS(axis): reads one absolute axis's range into `info`. Returns ioctl's result. */
static inline int clinux_eviocgabs(int fd, unsigned int axis, struct input_absinfo *info) {
    return ioctl(fd, EVIOCGABS(axis), info);
}

/* EVIOCGNAME(len): reads the device's name into `name` (`length` bytes). Returns ioctl's result. */
static inline int clinux_eviocgname(int fd, char *name, unsigned int length) {
    return ioctl(fd, EVIOCGNAME(length), name);
}
#endif
