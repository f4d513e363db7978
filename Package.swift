// swift-tools-version:6.0
import PackageDescription

// Lantern: ask questions of your own data with a local model, on Linux, in Swift.
// No package dependencies: llama.cpp and SQLite come from the system (see scripts/setup.sh).
let package = Package(
    name: "Lantern",
    products: [
        .library(name: "TokenBudget", targets: ["TokenBudget"]),
        .library(name: "LocalModel", targets: ["LocalModel"]),
        .library(name: "SearchIndex", targets: ["SearchIndex"]),
        .library(name: "SearchTool", targets: ["SearchTool"]),
        .library(name: "Evaluations", targets: ["Evaluations"]),
        .executable(name: "ask", targets: ["ask"]),
        .executable(name: "eval", targets: ["eval"]),
    ],
    targets: [
        .systemLibrary(name: "CLlama", path: "CModules/CLlama", pkgConfig: "llama",
                       providers: [.apt(["libllama-dev", "libggml-dev"])]),
        .systemLibrary(name: "CSQLite", path: "CModules/CSQLite", pkgConfig: "sqlite3",
                       providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CEditLine", path: "CModules/CEditLine", pkgConfig: "libedit",
                       providers: [.apt(["libedit-dev"])]),

        .target(name: "TokenBudget"),
        .target(name: "LocalModel", dependencies: ["CLlama", "TokenBudget"]),
        .target(name: "SearchIndex", dependencies: ["CSQLite"]),
        .target(name: "SearchTool", dependencies: ["SearchIndex", "LocalModel", "TokenBudget"]),
        .target(name: "Evaluations", dependencies: ["SearchTool", "SearchIndex", "LocalModel", "TokenBudget"],
                resources: [.copy("Samples")]),
        .executableTarget(name: "eval", dependencies: ["Evaluations"]),

        .executableTarget(name: "ask", dependencies: ["LocalModel", "SearchIndex", "SearchTool", "Evaluations", "TokenBudget", "CEditLine"]),
        .executableTarget(name: "bench", dependencies: ["LocalModel", "SearchIndex", "SearchTool"], path: "Benchmarks/bench"),
        // A child process the SearchIndex tests SIGKILL in the middle of a batch.
        .executableTarget(name: "lantern-index-crash-probe", dependencies: ["SearchIndex"],
                          path: "Tests/SearchIndexCrashProbe"),

        .testTarget(name: "TokenBudgetTests", dependencies: ["TokenBudget"]),
        .testTarget(name: "LocalModelTests", dependencies: ["LocalModel"]),
        .testTarget(name: "SearchIndexTests", dependencies: ["SearchIndex"]),
        .testTarget(name: "EvaluationsTests", dependencies: ["Evaluations"]),
        .testTarget(name: "SearchToolTests", dependencies: ["SearchTool", "SearchIndex", "LocalModel"]),
        // Runs the built `ask` binary as a process; the dependency makes sure it is built first.
        .testTarget(name: "askTests", dependencies: ["ask"]),
    ]
)
