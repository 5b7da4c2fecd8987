#ifndef UIBUS_CZSTD_SHIM_H
#define UIBUS_CZSTD_SHIM_H
#include <zstd.h>

/// ZSTD_CONTENTSIZE_* are macros of unsigned-long-long casts Swift cannot import.
static const unsigned long long CZSTD_CONTENTSIZE_UNKNOWN = ZSTD_CONTENTSIZE_UNKNOWN;
static const unsigned long long CZSTD_CONTENTSIZE_ERROR = ZSTD_CONTENTSIZE_ERROR;
#endif
