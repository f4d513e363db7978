import CLlama
import Foundation

/// ggml's CPU backend variants: one shared library per instruction-set level
/// (`libggml-cpu-{x64,sse42,haswell,skylakex,icelake,zen4,sapphirerapids,...}.so`), of which
/// `ggml_backend_load_all` loads the best this CPU can run.
///
/// Each variant computes with different kernels, so a small model's greedy output differs from
/// one to the next the way it differs between machines. Naming a variant lets the tests and the
/// benchmarks run this machine as another CPU would.
enum CPUBackendLibrary {
    /// The file of the CPU backend `ggml_backend_load_all` loaded, found among the process's
    /// mapped files; nil when ggml has its CPU backend built in. Read before any other variant
    /// is opened, so it is the one ggml chose.
    static func mappedPath() -> String? {
        guard let maps = try? String(contentsOfFile: "/proc/self/maps", encoding: .utf8) else { return nil }
        return maps.split(separator: "\n").lazy
            .compactMap { line in line.firstIndex(of: "/").map { String(line[$0...]) } }
            .first { variantName(ofFile: $0) != nil }
    }

    /// Every variant installed beside `loaded` that this CPU can run, best first (ggml's own
    /// score: the higher, the more instruction sets it uses).
    static func runnableVariants(beside loaded: String) -> [String] {
        installed(beside: loaded).compactMap { name in score(of: name, beside: loaded).map { (name, $0) } }
            .filter { $0.1 > 0 }
            .sorted { $0.1 > $1.1 }
            .map(\.0)
    }

    /// Replaces the CPU backend loaded from `current` with the variant `name` and returns the
    /// new file. Throws when no such variant is installed or this CPU lacks the instructions it
    /// needs (it would stop on an illegal instruction at the first matrix product).
    static func select(_ name: String, replacing current: String?) throws(LocalModelError) -> String {
        guard let current, let registry = ggml_backend_reg_by_name("CPU") else {
            throw .cpuVariantUnavailable(name: name, reason: "this ggml has its CPU backend built in, with no variants to choose from")
        }
        let installed = installed(beside: current)
        guard installed.contains(name) else {
            throw .cpuVariantUnavailable(name: name, reason: "no \(fileName(of: name)) beside \(current); installed: \(installed.joined(separator: ", "))")
        }
        guard let score = score(of: name, beside: current), score > 0 else {
            let runnable = runnableVariants(beside: current).joined(separator: ", ")
            throw .cpuVariantUnavailable(name: name, reason: "this CPU lacks instructions it needs; runnable here: \(runnable)")
        }
        let path = sibling(of: current, variant: name)
        guard path != current else { return current }
        ggml_backend_unload(registry)
        guard ggml_backend_load(path) != nil else {
            throw .cpuVariantUnavailable(name: name, reason: "ggml could not load \(path)")
        }
        return path
    }

    /// The variant's name, from its file name: `zen4` for `libggml-cpu-zen4.so`.
    static func variantName(ofFile path: String) -> String? {
        let file = (path as NSString).lastPathComponent
        guard file.hasPrefix("libggml-cpu-"), file.hasSuffix(".so") else { return nil }
        return String(file.dropFirst("libggml-cpu-".count).dropLast(".so".count))
    }

    private static func installed(beside loaded: String) -> [String] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: (loaded as NSString).deletingLastPathComponent)) ?? []
        return files.compactMap(variantName(ofFile:)).sorted()
    }

    /// ggml's score for a variant (0: this CPU cannot run it), read from the library without
    /// registering it.
    private static func score(of name: String, beside loaded: String) -> Int32? {
        guard let library = dlopen(sibling(of: loaded, variant: name), RTLD_NOW | RTLD_LOCAL) else { return nil }
        defer { dlclose(library) }
        guard let symbol = dlsym(library, "ggml_backend_score") else { return nil }
        typealias ScoreFunction = @convention(c) () -> Int32
        return unsafeBitCast(symbol, to: ScoreFunction.self)()
    }

    private static func sibling(of loaded: String, variant: String) -> String {
        (loaded as NSString).deletingLastPathComponent + "/" + fileName(of: variant)
    }

    private static func fileName(of variant: String) -> String { "libggml-cpu-\(variant).so" }
}
