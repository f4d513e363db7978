import Foundation
import TokenBudget

/// Everything that can go wrong in the engine, each case carrying what a user needs to fix it.
///
/// The messages are written for the person at the terminal: they name the file, the number or
/// the limit involved and what to do next, never a bare code.
public enum LocalModelError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No file at the path.
    case fileNotFound(path: String)
    /// The path is a directory, not a model file.
    case isDirectory(path: String)
    /// The file does not start with the GGUF magic bytes.
    case notGGUF(path: String, magic: String)
    /// The file exists but this user may not read it.
    case permissionDenied(path: String)
    /// The file is 0 bytes long.
    case emptyFile(path: String)
    /// Reading the file failed for another reason than permissions (an I/O error).
    case unreadable(path: String, reason: String)
    /// The header is damaged (a field no valid file holds, which `reason` names) or the file is
    /// shorter than its tensors need.
    case corruptFile(path: String, reason: String)
    /// A GGUF version this llama.cpp cannot read (it reads 2 and 3); the message tells an old
    /// version 1 file and a big-endian one (whose 2 or 3 reads byte-swapped) from a newer one.
    case unsupportedGGUFVersion(path: String, version: UInt32)
    /// Metadata llama.cpp would stop the process on, or load into a model that cannot run:
    /// `key` holds `value` (as read, with its GGUF type), and `requirement` says what a
    /// loadable file holds there. Checked from the header before llama.cpp sees the file.
    case invalidMetadata(path: String, key: String, value: String, requirement: String)
    /// llama.cpp does not know the model's architecture.
    case unsupportedArchitecture(path: String, architecture: String)
    /// The weights or the context buffers could not be allocated.
    case outOfMemory(what: String)
    /// Layers were asked to go to a GPU, but no loaded ggml backend can take them.
    case gpuOffloadUnavailable(requestedLayers: Int, devices: [String])
    /// A chat template name that is neither Lantern's own nor one of llama.cpp's built-in ones.
    case unknownChatTemplate(name: String, known: [String])
    /// A context window larger than the model was trained for, without an explicit override.
    case contextLargerThanTrained(requested: Int, trained: Int)
    /// A thread count outside 1...`maximum` (`LocalModel.Configuration.maximumThreads`: a few
    /// per logical core of the `cores` here, never past ggml's own limit).
    case threadCountOutOfRange(requested: Int, maximum: Int, cores: Int)
    /// A `parallelSessions` count outside 1...`maximum` (the most sequences llama.cpp gives a context).
    case parallelSessionsOutOfRange(requested: Int, maximum: Int)
    /// A context window of no tokens, or more than llama.cpp counts (`maximum` per sequence).
    case contextWindowOutOfRange(requested: Int, maximum: Int)
    /// A context window that cannot hold even the prompt.
    case promptTooLong(promptTokens: Int, window: Int)
    /// llama_decode failed.
    case decodeFailed(code: Int32, position: Int)
    /// Text that could not be tokenized.
    case tokenizationFailed(reason: String)
    /// A GBNF grammar llama.cpp's parser rejected.
    case invalidGrammar(reason: String)
    /// Generation under a grammar stopped because no token the grammar allows could be chosen
    /// (`reason` says why: usually a damaged model whose scores are NaN).
    case noTokenAllowed(reason: String)
    /// The CPU backend variant named in `LANTERN_GGML_CPU_VARIANT` cannot run here.
    case cpuVariantUnavailable(name: String, reason: String)
    /// A model that is not an embedding model was given to `EmbeddingModel`; `purpose` says
    /// what the file is (`ModelPurpose`).
    case notAnEmbeddingModel(path: String, purpose: String)
    /// An embedding model was given to `LocalModel`, which generates text.
    case embeddingModelCannotGenerate(path: String, architecture: String, pooling: String)
    /// llama.cpp failed to run the embedding model over a batch of texts.
    case embeddingFailed(code: Int32, texts: Int, tokens: Int)
    /// The embedding model file at `path` is not the one that was opened: it was replaced
    /// between reading its identity and loading it (`expected` and `found` name both).
    case embeddingModelChanged(path: String, expected: String, found: String)
    /// An `--rpc` entry that is not `host:port`.
    case invalidRPCServer(text: String, reason: String)
    /// An RPC server that did not accept a connection in time (or the RPC backend is missing).
    case rpcServerUnreachable(server: String, reason: String)
    /// An RPC server that speaks another protocol version than this process's ggml.
    case rpcVersionMismatch(server: String, serverVersion: String)
    /// An RPC server stopped answering while this process used it; the question ended there.
    case rpcServerDied(server: String)
    /// A tensor split whose proportions do not match the devices the layers go to.
    case invalidTensorSplit(proportions: [Double], devices: [String])
    /// Work stopped because its Task was cancelled.
    case cancelled

    public var description: String {
        switch self {
        case .fileNotFound(let path):
            return "no model file at \(path); run scripts/setup.sh for the default model or pass --model with the path of a .gguf file"
        case .isDirectory(let path):
            return "\(path) is a directory; pass the path of a .gguf file inside it"
        case .notGGUF(let path, let magic):
            return "\(path) is not a GGUF model (it starts with \(magic), a GGUF file starts with \"GGUF\"); convert the model to GGUF or pick the right file"
        case .permissionDenied(let path):
            return "\(path) cannot be read: permission denied for this user; make it readable (chmod a+r '\(path)') or run as a user who can read it"
        case .emptyFile(let path):
            return "\(path) is empty (0 bytes), not a model; the download or copy did not finish — download it again (scripts/setup.sh for the default model)"
        case .unreadable(let path, let reason):
            return "\(path) could not be read (\(reason)); check the disk and that the file is a regular file"
        case .corruptFile(let path, let reason):
            return "\(path) is a damaged GGUF file (\(reason)); download it again and check its sha256"
        case .unsupportedGGUFVersion(let path, let version):
            if version == 1 {
                return "\(path) is a GGUF version 1 file, a format llama.cpp stopped reading in 2023; convert the model again with a current llama.cpp (convert_hf_to_gguf.py) or download a current GGUF of it"
            }
            if version & 0xFFFF == 0, GGUFFile.supportedVersions.contains(version.byteSwapped) {
                return "\(path) is a big-endian GGUF file (version \(version.byteSwapped) written byte-swapped), which llama.cpp reads only on big-endian machines; convert the model again without --bigendian"
            }
            return "\(path) is GGUF version \(version), which this llama.cpp cannot read (it reads versions \(GGUFFile.supportedVersions.lowerBound) and \(GGUFFile.supportedVersions.upperBound)); use a GGUF version 3 file of the model, or a libllama that reads version \(version)"
        case .invalidMetadata(let path, let key, let value, let requirement):
            return "\(path) cannot be used: its metadata \(key) is \(value), but \(requirement); Lantern refused it before llama.cpp read it, since llama.cpp stops the whole process or fails on such values. The file was written wrong or edited: convert the model again with llama.cpp's convert_hf_to_gguf.py, or download it again and check its sha256"
        case .unsupportedArchitecture(let path, let architecture):
            return "\(path) holds a \(architecture) model, which this llama.cpp build cannot run; use a supported architecture (llama, qwen2, qwen3, ...) or a newer libllama"
        case .outOfMemory(let what):
            return "not enough memory for \(what); use a smaller model, a smaller context window, or close other programs"
        case .gpuOffloadUnavailable(let layers, let devices):
            let found = devices.isEmpty ? "none" : devices.joined(separator: ", ")
            return "\(layers) layers were asked to go to a GPU, but no GPU backend is loaded (ggml devices: \(found)); install one with scripts/setup.sh --gpu, or use 0 GPU layers to run on the CPU"
        case .unknownChatTemplate(let name, let known):
            return "there is no chat template named '\(name)'; use one of: \(known.joined(separator: ", "))"
        case .contextLargerThanTrained(let requested, let trained):
            return "context window of \(requested) tokens is larger than the \(trained) the model was trained with; choose \(trained) or less, or pass allowBeyondTrainedContext: true to makeContext(window:) to accept weaker output"
        case .threadCountOutOfRange(let requested, let maximum, let cores):
            let perCore = LocalModel.Configuration.threadsPerCore
            let reason = maximum < perCore * cores ? "ggml runs at most \(maximum) threads" : "\(perCore) per logical core, and this machine has \(cores)"
            return "\(requested) threads is out of range: use 1 to \(maximum) (\(reason)); more threads than cores make llama.cpp slower, not faster, so the default, one per core, is usually best"
        case .parallelSessionsOutOfRange(let requested, let maximum):
            return "\(requested) parallel sessions is out of range: use 1 to \(maximum), the most sequences llama.cpp gives one context (each takes the full window's KV memory when the first conversation starts)"
        case .contextWindowOutOfRange(let requested, let maximum):
            return "a context window of \(requested) tokens is out of range: use 1 to \(maximum) tokens (llama.cpp counts a context's positions, all its parallel sessions together, in 32 bits)"
        case .promptTooLong(let promptTokens, let window):
            return "the prompt is \(promptTokens) tokens and the context window holds \(window); shorten it or use a larger window"
        case .decodeFailed(let code, let position):
            return "llama.cpp failed to decode at position \(position) (code \(code)); the context may be full — use a larger window or a shorter prompt"
        case .tokenizationFailed(let reason):
            return "could not tokenize the text: \(reason)"
        case .invalidGrammar(let reason):
            return "llama.cpp rejected the grammar: \(reason)"
        case .noTokenAllowed(let reason):
            return "generation under the grammar stopped: \(reason)"
        case .cpuVariantUnavailable(let name, let reason):
            return "the CPU backend variant '\(name)' (LANTERN_GGML_CPU_VARIANT) cannot be used: \(reason); name another variant or unset the variable"
        case .notAnEmbeddingModel(let path, let purpose):
            return "\(path) is \(purpose), not an embedding model (its metadata names no mean, CLS or last-token pooling), so it cannot embed text; load it with LocalModel, and give EmbeddingModel an embedding GGUF (scripts/setup.sh installs all-MiniLM-L6-v2 into models/)"
        case .embeddingModelCannotGenerate(let path, let architecture, let pooling):
            return "\(path) is a \(architecture) embedding model (\(pooling) pooling): it turns text into vectors and cannot write text; load it with EmbeddingModel(contentsOf:), and pass a chat model such as the default SmolLM2 (scripts/setup.sh) to generate"
        case .embeddingFailed(let code, let texts, let tokens):
            return "llama.cpp failed to embed a batch of \(texts) texts, \(tokens) tokens in all (code \(code)); use fewer texts per batch (EmbeddingModel.Configuration.batchTokens) or check the model file"
        case .embeddingModelChanged(let path, let expected, let found):
            return "the embedding model file \(path) changed after it was opened: it was \(expected), it is now \(found); open it again, or put the file that made the index's vectors back"
        case .invalidRPCServer(let text, let reason):
            return "'\(text)' is not an RPC server: \(reason)"
        case .rpcServerUnreachable(let server, let reason):
            return "the RPC server \(server) cannot be reached (\(reason)); start it there with ggml-rpc-server -H HOST -p PORT, check the address and the firewall, or leave it out of --rpc"
        case .rpcVersionMismatch(let server, let serverVersion):
            return "the RPC server \(server) speaks RPC protocol \(serverVersion), which this process's ggml does not; run the same ggml version (libggml0-backend-rpc, llama.cpp-tools-extra) on both machines"
        case .rpcServerDied(let server):
            return "the RPC server \(server) stopped answering, so the work that needed it ended; the models with layers on it cannot be used any more, and this process cannot connect to it again: restart the server, then start the program again"
        case .invalidTensorSplit(let proportions, let devices):
            let listed = proportions.map { String($0) }.joined(separator: ",")
            return "--tensor-split \(listed) has \(proportions.count) proportions for \(devices.count) devices (\(devices.joined(separator: ", "))); give one non-negative proportion per device, not all zero"
        case .cancelled:
            return "generation or embedding was cancelled (its Task was cancelled)"
        }
    }
}
