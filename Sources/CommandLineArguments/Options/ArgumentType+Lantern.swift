import Foundation
import LocalModel
import SearchTool
import TokenBudget

extension ArgumentType where Element == ContextWindow {
    /// `4k`, `8k`, `32k` or a number of tokens.
    package static var contextWindow: Self {
        Self(valueName: "4k|8k|32k|N", requirement: "must be 4k, 8k, 32k or a number of tokens",
             describe: { $0.description }, read: { ContextWindow(parsing: $0) })
    }
}

extension ArgumentType where Element == FormatLevel {
    /// `compact` or `structured`.
    package static var format: Self { .oneOf([("compact", .compact), ("structured", .structured)]) }
}

extension ArgumentType where Element == [RPCServer] {
    /// `host:port[,host:port…]`, llama.cpp's `--rpc` list.
    package static var rpcServers: Self {
        Self(valueName: "HOST:PORT[,…]", requirement: "needs host:port, or several joined by commas, each port from 1 to 65535",
             describe: { $0.map(\.description).joined(separator: ",") }, read: { try? RPCServer.list(parsing: $0) })
    }
}

extension ArgumentType where Element == [Double] {
    /// Proportions joined by commas (`3,1,1`), llama.cpp's `--tensor-split`.
    package static var proportions: Self {
        Self(valueName: "P[,P…]", requirement: "needs non-negative numbers joined by commas, such as 1,1 or 3,1",
             describe: { $0.map { String(format: "%g", $0) }.joined(separator: ",") },
             read: { text in
                 let values = text.split(separator: ",", omittingEmptySubsequences: false).map { Double($0.trimmingCharacters(in: .whitespaces)) }
                 // finite as the Float llama.cpp takes: "inf" or 1e39 would make every share NaN
                 guard values.allSatisfy({ ($0 ?? -1) >= 0 && Float($0 ?? -1).isFinite }) else { return nil }
                 return values.compactMap { $0 }
             })
    }
}

extension ArgumentType where Element == Int {
    /// A thread count from 1 to `LocalModel.Configuration.maximumThreads`, the cap the library
    /// holds too; the requirement says where it comes from: the cores here, or ggml's limit.
    package static var threadCount: Self {
        let maximum = LocalModel.Configuration.maximumThreads
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let perCore = LocalModel.Configuration.threadsPerCore
        let reason = maximum < perCore * cores ? "ggml runs at most \(maximum); this machine has \(cores) logical cores"
            : "\(perCore) per logical core, and this machine has \(cores) logical cores"
        let whole = wholeNumber(in: 1...maximum)
        return Self(valueName: whole.valueName, requirement: "\(whole.requirement) (\(reason))", read: whole.read)
    }
}
