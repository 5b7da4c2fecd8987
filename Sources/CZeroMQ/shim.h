#ifndef UIBUS_CZEROMQ_SHIM_H
#define UIBUS_CZEROMQ_SHIM_H
#include <zmq.h>
#include <errno.h>

/// errno values that zmq reports through zmq_errno(), re-exported because
/// some of them are macros built from other macros.
static const int CZMQ_ETERM = ETERM;
static const int CZMQ_EFSM = EFSM;
#endif
