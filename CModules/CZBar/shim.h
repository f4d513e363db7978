// ZBar's C API: barcode and QR code decoding from 8-bit grey images. Not linked: opened with
// dlopen on first use, like Tesseract (see CTesseract/shim.h).
#include <dlfcn.h>
#include <zbar.h>

#define LANTERN_ZBAR_LAZY(name) \
    static inline __typeof__(&name) lantern_##name(void *library) { return (__typeof__(&name))dlsym(library, #name); }

LANTERN_ZBAR_LAZY(zbar_image_scanner_create)
LANTERN_ZBAR_LAZY(zbar_image_scanner_destroy)
LANTERN_ZBAR_LAZY(zbar_image_scanner_set_config)
LANTERN_ZBAR_LAZY(zbar_image_create)
LANTERN_ZBAR_LAZY(zbar_image_destroy)
LANTERN_ZBAR_LAZY(zbar_image_set_format)
LANTERN_ZBAR_LAZY(zbar_image_set_size)
LANTERN_ZBAR_LAZY(zbar_image_set_data)
LANTERN_ZBAR_LAZY(zbar_scan_image)
LANTERN_ZBAR_LAZY(zbar_image_first_symbol)
LANTERN_ZBAR_LAZY(zbar_symbol_next)
LANTERN_ZBAR_LAZY(zbar_symbol_get_type)
LANTERN_ZBAR_LAZY(zbar_symbol_get_data_length)
LANTERN_ZBAR_LAZY(zbar_symbol_get_data)
LANTERN_ZBAR_LAZY(zbar_symbol_get_loc_size)
LANTERN_ZBAR_LAZY(zbar_symbol_get_loc_x)
LANTERN_ZBAR_LAZY(zbar_symbol_get_loc_y)
LANTERN_ZBAR_LAZY(zbar_symbol_get_quality)
LANTERN_ZBAR_LAZY(zbar_get_symbol_name)
