#include <llama.h>
#include <ggml-backend.h>
