import Foundation

/// A compute device ggml loaded on this machine: the CPU always, GPUs when their backend
/// packages (for example Debian's libggml0-backend-vulkan) are installed.
public struct BackendDevice: Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable { case cpu, gpu, integratedGPU, accelerator }

    public let name: String
    public let description: String
    public let kind: Kind

    /// Every device ggml found. Loading backends happens once per process.
    public static var available: [BackendDevice] { LlamaRuntime.devices() }

    /// The CPU backend variant ggml runs (`zen4`, `haswell`, ...): the best this CPU can run,
    /// or the one `LANTERN_GGML_CPU_VARIANT` names. Nil when ggml has its CPU backend built in.
    public static var cpuVariant: String? { LlamaRuntime.cpuBackendPath.flatMap(CPUBackendLibrary.variantName(ofFile:)) }

    /// The shared library of that variant (`.../libggml-cpu-zen4.so`); its folder holds the
    /// other variants.
    public static var cpuVariantLibrary: URL? { LlamaRuntime.cpuBackendPath.map { URL(fileURLWithPath: $0) } }

    /// Every installed CPU backend variant this CPU can run, best first: the values
    /// `LANTERN_GGML_CPU_VARIANT` accepts here.
    public static var runnableCPUVariants: [String] { LlamaRuntime.cpuBackendPath.map(CPUBackendLibrary.runnableVariants(beside:)) ?? [] }

    /// Whether any loaded backend can take model layers (`gpuLayers` > 0 has an effect).
    public static var supportsGPUOffload: Bool { LlamaRuntime.supportsGPUOffload }
}
