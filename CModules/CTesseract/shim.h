// Tesseract's C API and Leptonica (its image library, which also loads images for ZBar).
// pkg-config "tesseract" adds Leptonica's include folder.
//
// Nothing here is linked: the libraries are opened with dlopen when a vision tool first runs
// (`VisionLibrary` in VisionBindings.swift), so a process that never reads an image does not
// map Tesseract, Leptonica and their ~60 dependencies (about 10 MiB of resident memory).
// `lantern_<function>(library)` returns the function from the opened library, typed from the
// real declaration.
#include <dlfcn.h>
#include <tesseract/capi.h>
#include <leptonica/allheaders.h>

static inline void *lantern_open_library(const char *soname) { return dlopen(soname, RTLD_NOW | RTLD_LOCAL); }
static inline const char *lantern_library_error(void) { return dlerror(); }

#define LANTERN_LAZY(name) \
    static inline __typeof__(&name) lantern_##name(void *library) { return (__typeof__(&name))dlsym(library, #name); }

LANTERN_LAZY(setMsgSeverity)
LANTERN_LAZY(findFileFormat)
LANTERN_LAZY(pixReadHeader)
LANTERN_LAZY(pixRead)
LANTERN_LAZY(pixGetSpp)
LANTERN_LAZY(pixAlphaBlendUniform)
LANTERN_LAZY(pixDestroy)
LANTERN_LAZY(pixGetWidth)
LANTERN_LAZY(pixGetHeight)
LANTERN_LAZY(pixConvertTo8)
LANTERN_LAZY(pixGetData)
LANTERN_LAZY(pixGetWpl)

LANTERN_LAZY(TessBaseAPICreate)
LANTERN_LAZY(TessBaseAPIDelete)
LANTERN_LAZY(TessBaseAPISetVariable)
LANTERN_LAZY(TessBaseAPIInit3)
LANTERN_LAZY(TessBaseAPIGetDatapath)
LANTERN_LAZY(TessBaseAPIEnd)
LANTERN_LAZY(TessBaseAPISetPageSegMode)
LANTERN_LAZY(TessBaseAPISetImage2)
LANTERN_LAZY(TessBaseAPIClear)
LANTERN_LAZY(TessBaseAPIRecognize)
LANTERN_LAZY(TessBaseAPIGetIterator)
LANTERN_LAZY(TessResultIteratorDelete)
LANTERN_LAZY(TessResultIteratorGetPageIteratorConst)
LANTERN_LAZY(TessResultIteratorGetUTF8Text)
LANTERN_LAZY(TessDeleteText)
LANTERN_LAZY(TessPageIteratorBoundingBox)
LANTERN_LAZY(TessResultIteratorConfidence)
LANTERN_LAZY(TessPageIteratorIsAtBeginningOf)
LANTERN_LAZY(TessResultIteratorNext)
