#ifndef UIBUS_CTURBOJPEG_SHIM_H
#define UIBUS_CTURBOJPEG_SHIM_H
#include <turbojpeg.h>
#endif
