// libxml2 as Debian builds it includes ICU's headers (<unicode/ucnv.h>, from encoding.h), and
// ICU's declarations clash with Foundation's own ICU module (_FoundationICU) in every Swift
// module that sees both: "'UErrorCode' has different definitions in different modules". Lantern
// calls no libxml2 API that involves ICU (it decodes charsets itself, HTML_PARSE_IGNORE_ENC), and
// the declarations ICU guards are the tail of xmlCharEncodingHandler, which Lantern never
// allocates or reads, so they are left out: xmlversion.h first, then ICU switched off.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/HTMLparser.h>
#include <libxml/HTMLtree.h>
#include <libxml/encoding.h>
#include <libxml/tree.h>
