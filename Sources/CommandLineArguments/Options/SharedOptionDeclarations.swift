import LocalModel
import TokenBudget

// The options more than one tool takes, declared once: `ask`, `eval` and `bench` spell them,
// default them and explain them the same way (`@Option(.model) var model: String?`).

extension OptionDeclaration where Value == String? {
    /// `--model`: found through models.lock by `ModelLocator`.
    package static var model: Self {
        Self("model", .text("FILE.gguf"), help: "The model: a path, a file in models/, or a name from models.lock (default: the models.lock default).")
    }
}

extension OptionDeclaration where Value == String? {
    /// `--chat-template`: a layout by name, in place of the one detected from the model file
    /// (llama-server's flag; base models' files often carry no template).
    package static var chatTemplate: Self {
        Self("chat-template", .text("NAME"), help: "The chat layout to render prompts with: chatml, qwen3 or one of llama.cpp's (gemma, llama3, mistral-v7, ...) (default: the model file's).")
    }
}

extension OptionDeclaration where Value == ContextWindow? {
    /// `--context`: nil is the model's own default window.
    package static var context: Self {
        Self("context", .contextWindow, help: "Context window in tokens (default: the model's trained context, at most 8K).")
    }
}

extension OptionDeclaration where Value == Int? {
    /// `--threads`: nil is `LocalModel.Configuration`'s default, every core; at most
    /// `LocalModel.Configuration.maximumThreads`, which the library checks too.
    package static var threads: Self {
        Self("threads", .threadCount,
             help: "Threads for prompt processing and generation, at most \(LocalModel.Configuration.threadsPerCore) per logical core (default: all cores).")
    }
}

extension OptionDeclaration where Value == GenerationOptions.AnswerStyle {
    /// `--answer`: how an answer after a search is written (`GenerationOptions.AnswerStyle`);
    /// `ask` and `eval` take the same flag, so an evaluation measures what a user runs.
    package static var answer: Self {
        Self("answer", .oneOf([("auto", .automatic), ("quote", .quote), ("prose", .prose)]), default: .automatic,
             help: "How the answer is written: quote (verbatim sentences of what the search showed, each cited), prose (free text whose citations can only name shown items), or auto (quote for models under 2B parameters).")
    }
}

extension OptionDeclaration where Value == String? {
    /// `--embedding-model`: the model an index's vectors are made with (`ModelLocator.locateEmbeddingModel`).
    package static var embeddingModel: Self {
        Self("embedding-model", .text("FILE.gguf"),
             help: "The embedding model for search by meaning: a path, a file in models/, a name from models.lock, or 'none' for full text only (default: the models.lock default embedding model when it is installed).")
    }
}

extension OptionDeclaration where Value == Int? {
    /// `--gpu-layers`: layers that leave this machine's CPU, for a GPU or the `--rpc` servers;
    /// nil is none, or every layer when `--rpc` is given (`ModelPlacementOptions`).
    package static var gpuLayers: Self {
        Self("gpu-layers", .wholeNumber(atLeast: 0), help: "Layers to offload to a GPU backend or the --rpc servers (default: 0, CPU only; every layer with --rpc).")
    }
}

extension OptionDeclaration where Value == [RPCServer]? {
    /// `--rpc`: ggml RPC servers that take part of the model's layers (llama.cpp's flag).
    package static var rpc: Self {
        Self("rpc", .rpcServers, help: "Spread the model's layers over these ggml-rpc-server instances (unauthenticated: loopback or a trusted network only).")
    }
}

extension OptionDeclaration where Value == [Double]? {
    /// `--tensor-split`: how the offloaded layers divide over the devices (llama.cpp's flag).
    package static var tensorSplit: Self {
        Self("tensor-split", .proportions, help: "How the offloaded layers divide over the devices, local GPUs first, then each --rpc server's (default: by free memory).")
    }
}
