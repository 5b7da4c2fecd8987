#ifndef UIBUS_CFREETYPE_SHIM_H
#define UIBUS_CFREETYPE_SHIM_H
#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_SYNTHESIS_H
#endif
