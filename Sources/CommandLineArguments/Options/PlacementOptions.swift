import LocalModel

/// `--gpu-layers`, `--rpc` and `--tensor-split`: where the model's layers run. `ask`, `eval`
/// and `bench` take them from here, so the three place a model the same way.
package struct PlacementOptions: ParsableArguments {
    @Option(.gpuLayers) package var gpuLayers: Int?
    @Option(.rpc) package var rpcServers: [RPCServer]?
    @Option(.tensorSplit) package var tensorSplit: [Double]?

    package init() {}

    /// Sets the configuration's layers, servers and split from what was given: `--rpc` without
    /// `--gpu-layers` sends every layer away, as there would be no point in naming servers
    /// otherwise; the split then divides them between the servers.
    package func apply(to configuration: inout LocalModel.Configuration) {
        configuration.rpcServers = rpcServers ?? []
        configuration.gpuLayers = gpuLayers ?? (rpcServers == nil ? configuration.gpuLayers : Self.everyLayer)
        configuration.tensorSplit = tensorSplit ?? []
    }

    /// More layers than any model has; llama.cpp offloads all of them, the output layer too.
    package static let everyLayer = 9999
}
