#ifndef UIBUS_CLINUX_SHIM_H
#define UIBUS_CLINUX_SHIM_H
/* Linux interfaces Glibc's Swift module does not import. */
#include <sys/signalfd.h>
#include <signal.h>
#endif
