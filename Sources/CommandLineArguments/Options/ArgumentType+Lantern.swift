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
                 guard values.allSatisfy({ ($0 ?? -1) >= 0 }) else { return nil }
                 return values.compactMap { $0 }
             })
    }
}
