import CommandLineArguments
import Foundation
import Lantern
import LocalModel

/// `ask info`: what a model file says about itself, its template family, and the compute
/// backends on this machine, and with `--rpc` the devices of those servers with their memory.
struct InfoCommand: Command {
    static let configuration = CommandConfiguration(
        tool: "ask", name: "info", abstract: "Print a model's metadata, chat template family and the available backends.")

    @Option(.model) var model: String?
    @Option(.chatTemplate) var chatTemplate: String?
    @Option(.rpc) var rpcServers: [RPCServer]?

    func run() async throws -> Int32 {
        let (model, duration) = try await ModelOptions(model: self.model, chatTemplate: chatTemplate).loader.load()
        let info = model.info
        let size = (try? FileManager.default.attributesOfItem(atPath: model.url.path)[.size] as? Int).map {
            ByteCountFormatter.string(fromByteCount: Int64($0), countStyle: .file)
        } ?? "unknown size"
        var rows: [(String, String)] = [
            ("file", "\(model.url.path) (\(size))"),
            ("name", info.name ?? "(none)"),
            ("architecture", info.architecture),
            ("summary", info.summary),
            ("parameters", info.parameterCount.formatted()),
            ("trained context", "\(info.trainedContext.formatted()) tokens"),
            ("default window", "\(model.defaultContextWindow.tokens.formatted()) tokens"),
            ("vocabulary", "\(info.vocabularySize.formatted()) tokens"),
            ("layers", "\(info.layerCount)"),
            ("template family", model.chatTemplate.name + (chatTemplate != nil ? " (--chat-template)" : info.chatTemplate == nil ? " (no template in the file)" : "")),
            ("tool layout", Self.describe(model.chatTemplate.toolLayout)),
            ("thinking", Self.describe(model.chatTemplate.toolLayout.thinking)),
            ("load time", String(format: "%.2f s", duration.seconds)),
        ]
        rows += BackendDevice.available.enumerated().map { offset, device in
            (offset == 0 ? "backends" : "", "\(device.name) (\(device.kind.rawValue)): \(device.description)")
        }
        rows.append(("cpu variant", BackendDevice.cpuVariant.map { "\($0) (of \(BackendDevice.runnableCPUVariants.joined(separator: ", ")) runnable here)" } ?? "built in"))
        // every server's devices or what is wrong with it; the first failure ends the command
        var failure: (any Error)?
        for (number, server) in (rpcServers ?? []).enumerated() {
            let label = number == 0 ? "rpc devices" : ""
            do {
                rows += try server.devices().enumerated().map { offset, device in
                    (offset == 0 ? label : "", "\(device.name) on \(server): \(Self.bytes(device.freeBytes)) free of \(Self.bytes(device.totalBytes))")
                }
            } catch {
                rows.append((label, "\(server): \(error)"))
                failure = failure ?? error
            }
        }
        rows.append(("gpu offload", BackendDevice.supportsGPUOffload ? "available (--gpu-layers N)" : "not available (CPU only)"))
        let width = rows.map(\.0.count).max() ?? 0
        for (label, value) in rows {
            Terminal.output((label.isEmpty ? "" : label + ":").padding(toLength: width + 2, withPad: " ", startingAt: 0) + value + "\n")
        }
        if let failure { throw failure }
        return 0
    }
}

extension InfoCommand {
    /// The layout's name and how its calls begin: `hermes (calls open with <tool_call>)`.
    static func describe(_ layout: any ToolLayout) -> String {
        let syntax = layout.callSyntax
        let limit = syntax.maximumCallsPerRound.map { ", at most \($0) per round" } ?? ""
        return "\(layout.name) (calls open with \(syntax.trigger)\(limit))"
    }

    static func bytes(_ count: Int) -> String { ByteCountFormatter.string(fromByteCount: Int64(count), countStyle: .memory) }

    /// Whether the family thinks, and its switch.
    static func describe(_ thinking: ThinkingSyntax?) -> String {
        guard let thinking else { return "not supported" }
        guard let off = thinking.offSwitch else { return "\(thinking.open)…\(thinking.close) blocks hidden, no switch" }
        return "supported, \(thinking.open)…\(thinking.close), off by default (\(off.trimmingCharacters(in: .whitespaces)); --think to allow)"
    }
}
