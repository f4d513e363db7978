// ZBar's C API: barcode and QR code decoding from 8-bit grey images.
#include <zbar.h>
