// CustomToolAndStage: a session with the search tool, an app's own tool (a distance converter)
// and an app-defined pipeline stage (a recency boost), over a few notes indexed into a temporary
// index; prints the transcript afterwards.
//
//   CustomToolAndStage [<question> ...]
//
// The model file comes from $LANTERN_MODEL (default: models/SmolLM2-135M-Instruct.Q4_1.gguf).
import Foundation
import Lantern

/// An app tool: converts distances between kilometres and miles.
struct DistanceConverter: Tool {
    struct Arguments: Generable, Codable {
        enum Unit: String, Generable, Codable, CaseIterable { case km, miles }
        var value: Double
        var from: Unit
        static let generationSchema: GenerationSchema = .object([
            .property("value", .number(description: "The distance to convert", in: 0...100_000)),
            .property("from", Unit.self, description: "The unit the distance is in"),
        ])
    }
    let name = "convert_distance"
    let description = "Converts a distance from km to miles or from miles to km."

    func call(arguments: Arguments) async throws -> String {
        let kilometresPerMile = 1.609344
        return switch arguments.from {
        case .km: String(format: "%g km = %.2f miles", arguments.value, arguments.value / kilometresPerMile)
        case .miles: String(format: "%g miles = %.2f km", arguments.value, arguments.value * kilometresPerMile)
        }
    }
}

/// An app stage (the recency boost of Apple's documentation): scores each item by how recently
/// it changed, 1 for today falling to 0 at `days` ago, so the newest come first.
struct RecencyBoost: CustomStage {
    let name = "recency_boost"
    let description = "Ranks results so that the most recently changed come first."
    let inputTypes: [SearchPipelineDataType] = [.items, .scoredItems]
    let outputType = SearchPipelineDataType.scoredItems
    var argumentSchema: GenerationSchema {
        .object([.property("days", .integer(description: "How many days count as recent", in: 1...365))])
    }

    func execute(input: SearchPipelineData, arguments: GeneratedContent) async throws -> SearchPipelineData {
        let days = Double(arguments["days"]?.intValue ?? 30)
        let now = Date()
        let scored = input.items.map { item in
            let age = item.attributeSet.contentModificationDate.map { now.timeIntervalSince($0) / 86_400 } ?? days
            return ScoredSearchableItem(item: item, score: max(0, 1 - age / days))
        }
        return .scoredItems(scored.sorted { $0.score > $1.score })
    }
}

/// Notes about running, changed `daysAgo` days ago.
let notes: [(id: String, title: String, text: String, daysAgo: Double)] = [
    ("run-1", "Long run by the river", "Running 21 km along the river in 2 hours. Knees fine.", 2),
    ("run-2", "Interval training", "Running six 800 m intervals on the track, 3 km of warm-up.", 9),
    ("run-3", "First trail race", "Trail running race: 15 km with 600 m of climbing, in 1:45.", 40),
    ("run-4", "Winter base miles", "Easy running, 10 km three times a week through January.", 120),
]

let questions = CommandLine.arguments.count > 1 ? Array(CommandLine.arguments.dropFirst()) : [
    "Search my running notes, newest first, with the recency_boost stage.",
    "Convert 21 km to miles.",
]
let modelPath = ProcessInfo.processInfo.environment["LANTERN_MODEL"] ?? "models/SmolLM2-135M-Instruct.Q4_1.gguf"
let folder = FileManager.default.temporaryDirectory.appendingPathComponent("custom-tool-and-stage-\(UUID().uuidString)")
defer { try? FileManager.default.removeItem(at: folder) }

do {
    let index = try SearchableIndex(url: folder.appendingPathComponent("notes.sqlite"))
    try await index.indexSearchableItems(notes.map { note in
        var attributes = SearchableItemAttributeSet(contentType: "public.text")
        attributes.title = note.title
        attributes.textContent = note.text
        attributes.contentModificationDate = Date(timeIntervalSinceNow: -note.daysAgo * 86_400)
        return SearchableItem(uniqueIdentifier: note.id, attributeSet: attributes)
    })

    let model = try LocalModel(contentsOf: URL(fileURLWithPath: modelPath))
    let search = SearchTool(configuration: .init(
        sources: [.index(IndexSource(index: index, fetchAttributes: [.title, .contentModificationDate]))],
        // A narrow guide (search terms and the app's stage, no built-in stages or date filters)
        // leaves a small model fewer ways to go wrong.
        guide: .dynamic(GuidanceProfile(numericMatch: false, dates: false, attributes: [.title], stages: false)),
        customStages: [RecencyBoost()]))
    let session = LanguageModelSession(
        model: model, tools: [search, DistanceConverter()],
        instructions: """
            Use convert_distance for unit conversions. Use spotlight_search for the user's running notes, \
            with the recency_boost stage to put the newest first.
            """)
    for question in questions {
        let response = try await session.respond(
            to: question, options: GenerationOptions(maximumResponseTokens: 120, toolCallingMode: .required))
        print("Q: \(question)\nA: \(response.content)\n")
    }

    print("Transcript:")
    for entry in session.transcript {
        let text = entry.text.count > 300 ? entry.text.prefix(300) + "…" : Substring(entry.text)
        switch entry {
        case .instructions: print("[instructions] \(text)")
        case .prompt: print("[prompt] \(text)")
        case .toolCalls(let calls): for call in calls.calls { print("[call] \(call.toolName) \(call.arguments)") }
        case .toolOutput(let output): print("[\(output.toolName)\(output.isError ? " error" : "")] \(text)")
        case .response: print("[response] \(text)")
        }
    }
} catch {
    FileHandle.standardError.write(Data("CustomToolAndStage: \(error)\n".utf8))
    exit(1)
}
