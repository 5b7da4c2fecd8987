#ifndef UIBUS_CPNG_SHIM_H
#define UIBUS_CPNG_SHIM_H
#include <png.h>

/// PNG_FORMAT_* and PNG_IMAGE_* are compound macros Swift cannot import.
static const png_uint_32 CPNG_FORMAT_RGBA = PNG_FORMAT_RGBA;
static const png_uint_32 CPNG_IMAGE_VERSION = PNG_IMAGE_VERSION;
static inline size_t cpng_image_row_stride(const png_image *image) { return PNG_IMAGE_ROW_STRIDE(*image); }
static inline size_t cpng_image_size(const png_image *image) { return PNG_IMAGE_SIZE(*image); }
#endif
