import CLlama
import Foundation
import Synchronization

/// Process-wide llama.cpp state: backends are loaded and initialised once, and llama's log goes
/// through a capture buffer so that a failed load can say *why* (llama.cpp only returns NULL).
enum LlamaRuntime {
    private static let logLines = Mutex<[String]>([])
    private static let echoLog = ProcessInfo.processInfo.environment["LANTERN_LLAMA_LOG"] == "1"

    /// The environment variable that makes ggml run one named CPU backend variant (`haswell`,
    /// `x64`, `zen4`, ...) instead of the best one this CPU can run: another machine's kernels,
    /// and so its arithmetic, on this one (tests and benchmarks use it).
    static let cpuVariantVariable = "LANTERN_GGML_CPU_VARIANT"

    /// The most threads ggml's CPU backend runs a graph on (`GGML_MAX_N_THREADS` in ggml.h);
    /// past it ggml overruns its per-thread arrays (100,000 threads segfaulted).
    static let maximumThreads = Int(GGML_MAX_N_THREADS)

    /// The most sequences one llama.cpp context takes (`LLAMA_MAX_SEQ`, not in the public
    /// headers): `llama_init_from_model` refuses more with "n_seq_max must be <= 256".
    static let maximumSequences = 256

    /// Loads every ggml backend that is installed (CPU variants, Vulkan, CUDA), swaps in the CPU
    /// variant `LANTERN_GGML_CPU_VARIANT` names, and initialises llama.cpp. Evaluated once, on
    /// first use, from any thread.
    private static let initialization: Result<String?, LocalModelError> = {
        llama_log_set({ level, text, _ in
            guard let text else { return }
            let line = String(cString: text)
            if LlamaRuntime.echoLog { FileHandle.standardError.write(Data(line.utf8)) }
            if level == GGML_LOG_LEVEL_ERROR || level == GGML_LOG_LEVEL_WARN {
                LlamaRuntime.logLines.withLock { lines in
                    lines.append(line.trimmingCharacters(in: .whitespacesAndNewlines))
                    if lines.count > 64 { lines.removeFirst(lines.count - 64) }
                }
            }
        }, nil)
        // llama.cpp ends the process on an internal error (GGML_ABORT, an uncaught C++
        // exception), and by default ggml first attaches gdb, whose backtrace goes to stdout,
        // where `ask --json` writes its one JSON object. The message goes to stderr instead and
        // no debugger is started (LANTERN_LLAMA_LOG=1 keeps ggml's backtraces, for debugging).
        ggml_set_abort_callback { message in
            let text = message.map { String(cString: $0) } ?? "unknown error"
            RPCServerLoss.takeOver(abortMessage: text)
            FileHandle.standardError.write(Data("llama.cpp stopped the process: \(text)\n".utf8))
        }
        if !LlamaRuntime.echoLog { setenv("GGML_NO_BACKTRACE", "1", 0) }
        ggml_backend_load_all()
        llama_backend_init()
        let loaded = CPUBackendLibrary.mappedPath()
        guard let wanted = ProcessInfo.processInfo.environment[cpuVariantVariable], !wanted.isEmpty else { return .success(loaded) }
        return Result { () throws(LocalModelError) in try CPUBackendLibrary.select(wanted, replacing: loaded) }
    }()

    /// Makes sure the backends are loaded; throws when the CPU variant asked for cannot run.
    static func initialize() throws(LocalModelError) { _ = try initialization.get() }

    /// The file of the CPU backend variant in use; nil when it is built into ggml, or when the
    /// variant asked for could not be loaded.
    static var cpuBackendPath: String? { try? initialization.get() }

    /// Makes sure the backends are loaded, for callers that only list what loaded.
    static func loadBackends() { _ = initialization }

    /// Errors and warnings llama.cpp logged while `body` ran (loads are serialised for this).
    static func capturingLog<T>(_ body: () -> T) -> (T, [String]) {
        loadBackends()
        captureTurn.wait()
        captureHolder.withLock { $0 = pthread_self() }
        logLines.withLock { $0.removeAll() }
        let result = body()
        let lines = logLines.withLock { $0 }
        let stillHeld = captureHolder.withLock { holder in
            defer { holder = nil }
            return holder.map { pthread_equal($0, pthread_self()) != 0 } ?? false
        }
        if stillHeld { captureTurn.signal() }
        return (result, lines)
    }
    // a semaphore, not a mutex: a thread that will never return (an RPC server died under it)
    // can have its turn given back by another (`releaseCapture`)
    private static let captureTurn = DispatchSemaphore(value: 1)
    private static let captureHolder = Mutex<pthread_t?>(nil)

    /// Ends `thread`'s turn at capturing the log when it is parked for good inside llama.cpp
    /// (`RPCServerLoss`), so later loads do not wait for it.
    static func releaseCapture(heldBy thread: pthread_t) {
        let held = captureHolder.withLock { holder in
            guard let current = holder, pthread_equal(current, thread) != 0 else { return false }
            holder = nil
            return true
        }
        if held { captureTurn.signal() }
    }

    /// How ggml type `type` stores values: `elements` values per block of `bytes` bytes (1 and
    /// 4 for F32, 32 and 18 for Q4_0); nil for a type this ggml does not know.
    static func tensorBlock(type: UInt32) -> (elements: Int64, bytes: Int64)? {
        guard type < UInt32(GGML_TYPE_COUNT.rawValue) else { return nil }
        let ggmlType = ggml_type(rawValue: type)
        let blockSize = Int64(ggml_blck_size(ggmlType))
        let typeSize = Int64(ggml_type_size(ggmlType))
        guard blockSize > 0, typeSize > 0 else { return nil }
        return (blockSize, typeSize)
    }

    /// What names this process's llama.cpp build for a saved prompt state (`PromptStateKey`):
    /// the state format's version, and every llama and ggml library mapped (the CPU variant in
    /// use among them) with its size and modification time, so an upgraded package, a rebuilt
    /// library or another CPU variant is another build even when its version number is not.
    static let buildIdentity: String = {
        loadBackends()
        // read to the end: procfs reports a size of 0, and a read of the first page only
        // left out whichever libraries were mapped past it
        let maps = FileHandle(forReadingAtPath: "/proc/self/maps").flatMap { try? $0.readToEnd() }.map { String(decoding: $0, as: UTF8.self) } ?? ""
        let libraries = Set(maps.split(separator: "\n").compactMap { line -> String? in
            guard let slash = line.firstIndex(of: "/") else { return nil }
            let path = String(line[slash...])
            let name = URL(fileURLWithPath: path).lastPathComponent
            return name.hasPrefix("libllama") || name.hasPrefix("libggml") ? path : nil
        })
        let described = libraries.sorted().map { path in
            let attributes = (try? FileManager.default.attributesOfItem(atPath: path)) ?? [:]
            return "\(path) \(attributes[.size] ?? "?") \((attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0)"
        }
        return (["state format \(LLAMA_STATE_SEQ_VERSION)"] + described).joined(separator: "; ")
    }()

    /// The ggml devices that loaded on this machine (always at least the CPU).
    static func devices() -> [BackendDevice] {
        loadBackends()
        return (0..<ggml_backend_dev_count()).compactMap { index in
            guard let device = ggml_backend_dev_get(index) else { return nil }
            let kind: BackendDevice.Kind
            switch ggml_backend_dev_type(device) {
            case GGML_BACKEND_DEVICE_TYPE_CPU: kind = .cpu
            case GGML_BACKEND_DEVICE_TYPE_GPU: kind = .gpu
            case GGML_BACKEND_DEVICE_TYPE_IGPU: kind = .integratedGPU
            default: kind = .accelerator
            }
            return BackendDevice(
                name: String(cString: ggml_backend_dev_name(device)),
                description: String(cString: ggml_backend_dev_description(device)),
                kind: kind)
        }
    }

    /// Whether a local GPU can take layers. Not `llama_supports_gpu_offload()`, which is also
    /// true when only the RPC backend is installed, with no server to send layers to.
    static var supportsGPUOffload: Bool { !RPCBackend.localAcceleratorDevices.isEmpty }

    /// Throws when `layers` > 0 are to go to a GPU but no loaded backend can take them: llama.cpp
    /// would silently keep them on the CPU, and the user would believe the GPU is in use.
    static func requireGPUOffload(layers: Int) throws(LocalModelError) {
        guard layers > 0, !supportsGPUOffload else { return }
        throw .gpuOffloadUnavailable(requestedLayers: layers, devices: devices().map(\.name))
    }
}
