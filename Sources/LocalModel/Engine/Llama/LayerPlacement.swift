import CLlama

/// Where a model's layers go: how many leave the CPU, to which devices, in what proportions
/// (llama.cpp's `-ngl`, `--rpc` and `--tensor-split`, resolved to device pointers).
struct LayerPlacement: @unchecked Sendable { // the device pointers are ggml's, alive for the process
    let gpuLayers: Int32
    /// The devices in llama.cpp's order; nil leaves the choice to llama.cpp (every local GPU).
    let devices: [OpaquePointer]?
    let tensorSplit: [Float]
    /// The RPC servers among the devices (their losses are `RPCServerLoss`'s).
    let rpcServers: [RPCServer]

    static let cpuOnly = LayerPlacement(gpuLayers: 0, devices: nil, tensorSplit: [], rpcServers: [])

    private init(gpuLayers: Int32, devices: [OpaquePointer]?, tensorSplit: [Float], rpcServers: [RPCServer]) {
        self.gpuLayers = gpuLayers
        self.devices = devices
        self.tensorSplit = tensorSplit
        self.rpcServers = rpcServers
    }

    /// Connects to the configuration's RPC servers (throwing their typed errors) and checks the
    /// split against the devices found.
    init(_ configuration: LocalModel.Configuration) throws(LocalModelError) {
        var named = RPCBackend.localAcceleratorDevices
        if configuration.rpcServers.isEmpty {
            try LlamaRuntime.requireGPUOffload(layers: configuration.gpuLayers)
            devices = nil
        } else {
            for server in configuration.rpcServers { named += try RPCBackend.devices(of: server) }
            devices = named
        }
        let split = configuration.tensorSplit
        if !split.isEmpty {
            guard split.count == named.count, split.count <= llama_max_devices(), split.allSatisfy({ $0 >= 0 }), split.contains(where: { $0 > 0 }) else {
                throw .invalidTensorSplit(proportions: split, devices: named.map(RPCBackend.name(of:)))
            }
        }
        gpuLayers = Int32(clamping: configuration.gpuLayers)
        tensorSplit = split.map(Float.init)
        rpcServers = configuration.rpcServers
    }

    /// Calls `body` with `params` pointing at this placement's device list and split, which
    /// live only for the call.
    func applied<T>(to params: llama_model_params, _ body: (llama_model_params) -> T) -> T {
        var params = params
        params.n_gpu_layers = gpuLayers
        var list: [OpaquePointer?] = (devices ?? []) + [nil]
        var split = [Float](repeating: 0, count: llama_max_devices())
        for (index, proportion) in tensorSplit.enumerated() { split[index] = proportion }
        return list.withUnsafeMutableBufferPointer { listPointer in
            split.withUnsafeBufferPointer { splitPointer in
                if devices != nil { params.devices = listPointer.baseAddress }
                if !tensorSplit.isEmpty { params.tensor_split = splitPointer.baseAddress }
                return body(params)
            }
        }
    }
}
