/// One section of the benchmark, in the order a full run takes them; the raw value is its name
/// on the command line (`bench --section prefix-cache`).
enum BenchmarkSection: String, CaseIterable, Sendable {
    case engine
    case depth
    case rpc
    case index
    case indexGrowth = "index-growth"
    case passages
    case html
    case sentences
    case embedding
    case vectors
    case grammar
    case prefixCache = "prefix-cache"
    case concurrency
    case searchtool
    case guidance
    case vision
    case e2e
    case memory
    case serve
    case warmStart = "warm-start"
    case evaluation
    case calls
    case tools
    case reliability
    case folder

    /// Runs the section; `--quick` sizes come from the environment.
    func run(_ environment: BenchmarkEnvironment) async throws -> SectionReport {
        switch self {
        case .engine:
            try await EngineBenchmark.run(environment)
        case .depth:
            try await DepthBenchmark.run(environment)
        case .rpc:
            try await RPCBenchmark.run(environment)
        case .index:
            try await IndexBenchmark.run(itemCount: environment.quick ? 100_000 : 1_000_000,
                                         workDirectory: environment.workDirectory.appendingPathComponent("index"))
        case .indexGrowth:
            try await IndexBenchmark.growth(sizes: environment.quick ? [10_000, 100_000, 1_000_000] : [10_000, 100_000, 1_000_000, 10_000_000],
                                            workDirectory: environment.workDirectory.appendingPathComponent("index-growth"))
        case .passages:
            try await PassageBenchmark.run(documentCount: environment.quick ? 1_000 : 10_000,
                                           workDirectory: environment.workDirectory.appendingPathComponent("passages"))
        case .html:
            try HTMLExtractionBenchmark.run(quick: environment.quick)
        case .sentences:
            try await SentenceBenchmark.run(workDirectory: environment.workDirectory.appendingPathComponent("sentences"))
        case .embedding:
            try await EmbeddingBenchmark.run(environment)
        case .vectors:
            try await VectorBenchmark.run(environment)
        case .grammar:
            try await GrammarBenchmark.grammarOverhead(environment, repetitions: environment.quick ? 3 : 7)
        case .prefixCache:
            try await GrammarBenchmark.prefixCache(environment, repetitions: environment.quick ? 2 : 5)
        case .concurrency:
            try await ConcurrencyBenchmark.run(environment)
        case .searchtool:
            try await SearchToolBenchmark.run(environment)
        case .guidance:
            try await GuidanceBenchmark.run(environment)
        case .vision:
            try await VisionBenchmark.run(environment)
        case .e2e:
            try await EndToEndBenchmark.run(environment)
        case .memory:
            try await MemoryBenchmark.run(environment)
        case .serve:
            try await ServeBenchmark.run(environment)
        case .warmStart:
            try await WarmStartBenchmark.run(environment)
        case .evaluation:
            try await EvaluationBenchmark.run(environment)
        case .calls:
            try await FunctionCallBenchmark.run(environment)
        case .tools:
            try await ToolCountBenchmark.run(environment)
        case .reliability:
            try await ReliabilityBenchmark.run(environment)
        case .folder:
            try await FolderBenchmark.run(environment)
        }
    }
}
