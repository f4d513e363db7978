// Tesseract's C API and Leptonica (its image library, which also loads images for ZBar).
// pkg-config "tesseract" adds Leptonica's include folder; "lept" is linked here because
// tesseract.pc lists it only as a private requirement.
#include <tesseract/capi.h>
#include <leptonica/allheaders.h>
