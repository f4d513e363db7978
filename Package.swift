// swift-tools-version:6.0
import PackageDescription

// Lantern: ask questions of your own data with a local model, on Linux, in Swift.
// No package dependencies: llama.cpp, SQLite, libxml2, ICU, libedit, Tesseract and ZBar come from the system
// (scripts/setup.sh installs them).
let package = Package(
    name: "Lantern",
    products: [
        .library(name: "Lantern", targets: ["Lantern"]),
        .library(name: "TokenBudget", targets: ["TokenBudget"]),
        .library(name: "Sentences", targets: ["Sentences"]),
        .library(name: "LocalModel", targets: ["LocalModel"]),
        .library(name: "RemoteModel", targets: ["RemoteModel"]),
        .library(name: "SearchIndex", targets: ["SearchIndex"]),
        .library(name: "SearchTool", targets: ["SearchTool"]),
        .library(name: "Evaluations", targets: ["Evaluations"]),
        .library(name: "VisionTools", targets: ["VisionTools"]),
        .executable(name: "ask", targets: ["ask"]),
        .executable(name: "eval", targets: ["eval"]),
    ],
    targets: [
        .systemLibrary(name: "CLlama", path: "CModules/CLlama", pkgConfig: "llama",
                       providers: [.apt(["libllama-dev", "libggml-dev"])]),
        .systemLibrary(name: "CSQLite", path: "CModules/CSQLite", pkgConfig: "sqlite3",
                       providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CXML2", path: "CModules/CXML2", pkgConfig: "libxml-2.0",
                       providers: [.apt(["libxml2-dev"])]),
        .systemLibrary(name: "CEditLine", path: "CModules/CEditLine", pkgConfig: "libedit",
                       providers: [.apt(["libedit-dev"])]),
        // Headers only: VisionTools opens these libraries with dlopen when it first reads an image.
        .systemLibrary(name: "CTesseract", path: "CModules/CTesseract",
                       providers: [.apt(["libtesseract-dev", "libleptonica-dev", "tesseract-ocr-eng"])]),
        .systemLibrary(name: "CZBar", path: "CModules/CZBar",
                       providers: [.apt(["libzbar-dev"])]),

        .target(name: "TokenBudget"),
        // ICU's sentence break iterator behind plain C types (its headers clash with Foundation's ICU in Swift).
        .target(name: "CSentenceBreak", linkerSettings: [.linkedLibrary("icuuc")]),
        // Sentences as a person reads them: what passages, snippets, vectors and quotes share.
        .target(name: "Sentences", dependencies: ["CSentenceBreak"]),
        .target(name: "LocalModel", dependencies: ["CLlama", "TokenBudget", "Sentences"]),
        // A model on a server (llama-server, vLLM) as a `LanguageModel`: Foundation and Glibc sockets only.
        .target(name: "RemoteModel", dependencies: ["LocalModel", "TokenBudget"]),
        // FTS5's tokenizer hook and per-word shortlists, in C because they run for every word indexed.
        .target(name: "CFullText", dependencies: ["CSQLite"]),
        // The dot products of a search by meaning, in C for the CPU's own vector instructions.
        .target(name: "CVectorScan"),
        // glibc's malloc_trim, which Swift's Glibc module does not export.
        .target(name: "CHeapRelease"),
        .target(name: "SearchIndex", dependencies: ["CSQLite", "CFullText", "CVectorScan", "CHeapRelease", "CXML2", "Sentences"]),
        .target(name: "SearchTool", dependencies: ["SearchIndex", "LocalModel", "TokenBudget"]),
        .target(name: "Evaluations", dependencies: ["SearchTool", "SearchIndex", "LocalModel", "Sentences", "TokenBudget"],
                resources: [.copy("Samples")]),
        .target(name: "VisionTools", dependencies: ["LocalModel", "CTesseract", "CZBar"]),
        // The umbrella an app imports, and the app layer every front end calls: the models.lock
        // lookup and model loading, opening or building an index from its source.
        .target(name: "Lantern", dependencies: ["LocalModel", "RemoteModel", "SearchIndex", "SearchTool", "Sentences", "TokenBudget", "Evaluations"]),
        // Lantern's tools served to another program's model: MCP over stdio (`ask mcp`).
        .target(name: "LanternMCP", dependencies: ["LocalModel", "SearchIndex", "SearchTool"]),
        // Lantern's answers served over OpenAI's HTTP API (`ask serve`): Foundation and Glibc sockets only.
        .target(name: "LanternOpenAI", dependencies: ["Lantern", "LocalModel"]),
        // The declarative command line ask, eval and bench share.
        .target(name: "CommandLineArguments", dependencies: ["SearchTool", "TokenBudget"]),

        .executableTarget(name: "eval", dependencies: ["Evaluations", "CommandLineArguments", "Lantern"]),
        .executableTarget(name: "ask", dependencies: ["Lantern", "LanternMCP", "LanternOpenAI", "LocalModel", "SearchIndex", "SearchTool", "Evaluations", "TokenBudget", "VisionTools", "CEditLine", "CommandLineArguments"]),
        .executableTarget(name: "bench", dependencies: ["Lantern", "LocalModel", "RemoteModel", "SearchIndex", "SearchTool", "Sentences", "VisionTools", "Evaluations", "CommandLineArguments"], path: "Benchmarks/bench"),
        // A child process the SearchIndex tests SIGKILL in the middle of a batch.
        .executableTarget(name: "lantern-index-crash-probe", dependencies: ["SearchIndex"],
                          path: "Tests/SearchIndexCrashProbe"),

        // Fuzz targets (scripts/fuzz.sh builds them with -sanitize=fuzzer; here each runs the files
        // given as arguments through its LLVMFuzzerTestOneInput).
        .target(name: "FuzzDriver", path: "Fuzz/FuzzDriver"),
        .executableTarget(name: "fuzz-query-string", dependencies: ["SearchIndex", "FuzzDriver"], path: "Fuzz/query-string", exclude: ["seeds"]),
        .executableTarget(name: "fuzz-json", dependencies: ["LocalModel", "FuzzDriver"], path: "Fuzz/json", exclude: ["seeds"]),
        .executableTarget(name: "fuzz-corpus", dependencies: ["SearchIndex", "FuzzDriver"], path: "Fuzz/corpus", exclude: ["seeds"]),
        .executableTarget(name: "fuzz-gguf", dependencies: ["LocalModel", "FuzzDriver"], path: "Fuzz/gguf", exclude: ["seeds"]),
        .executableTarget(name: "fuzz-grammar", dependencies: ["LocalModel", "FuzzDriver"], path: "Fuzz/grammar", exclude: ["seeds"]),
        .executableTarget(name: "fuzz-tool-call", dependencies: ["LocalModel", "FuzzDriver"], path: "Fuzz/tool-call", exclude: ["seeds"]),
        .executableTarget(name: "fuzz-html", dependencies: ["SearchIndex", "FuzzDriver"], path: "Fuzz/html", exclude: ["seeds"]),
        .executableTarget(name: "fuzz-sentences", dependencies: ["Sentences", "FuzzDriver"], path: "Fuzz/sentences", exclude: ["seeds"]),
        .executableTarget(name: "fuzz-cli-options", dependencies: ["CommandLineArguments", "LocalModel", "TokenBudget", "FuzzDriver"], path: "Fuzz/cli-options", exclude: ["seeds"]),

        .testTarget(name: "TokenBudgetTests", dependencies: ["TokenBudget"]),
        .testTarget(name: "SentencesTests", dependencies: ["Sentences"]),
        // Stand-ins for ggml-rpc-servers a real one cannot play, for the LocalModel and ask tests.
        .target(name: "RPCStandIn", dependencies: ["LocalModel"], path: "Tests/RPCStandIn"),
        // The real model the tests that generate load: the default, or $LANTERN_TEST_MODEL's file;
        // and llama-server started on it, for the remote model's tests.
        .target(name: "TestModelSupport", dependencies: ["LocalModel", "RemoteModel"], path: "Tests/TestModelSupport"),
        .testTarget(name: "LocalModelTests", dependencies: ["LocalModel", "RPCStandIn", "TestModelSupport"], exclude: ["Fixtures"]),
        // Against a real llama-server the tests start.
        .testTarget(name: "RemoteModelTests", dependencies: ["RemoteModel", "LocalModel", "SearchTool", "SearchIndex", "TestModelSupport"]),
        .testTarget(name: "SearchIndexTests", dependencies: ["SearchIndex"], exclude: ["Fixtures"]),
        .testTarget(name: "EvaluationsTests", dependencies: ["Evaluations", "TestModelSupport"]),
        .testTarget(name: "SearchToolTests", dependencies: ["SearchTool", "SearchIndex", "LocalModel", "TestModelSupport"]),
        .testTarget(name: "VisionToolsTests", dependencies: ["VisionTools", "TestModelSupport"]),
        .testTarget(name: "CommandLineArgumentsTests", dependencies: ["CommandLineArguments", "SearchTool", "TokenBudget"]),
        .testTarget(name: "LanternTests", dependencies: ["Lantern"]),
        // Runs the built `ask` binary as a process; the dependency makes sure it is built first.
        .testTarget(name: "askTests", dependencies: ["ask", "SearchIndex", "eval", "RPCStandIn", "TestModelSupport"], exclude: ["Fixtures"]),
        // Runs scripts/ (apt source detection, the machine check) against fixture folders.
        .testTarget(name: "SetupTests"),
    ]
)
