// StructuredOutput: asks for a typed value over an index (a list of trails with name, state and
// distance). The model may search first; its answer is then written under a grammar compiled
// from the type's schema, so it always decodes into `TrailList`.
//
//   StructuredOutput [<question>]
//
// The model file comes from $LANTERN_MODEL (default: models/SmolLM2-135M-Instruct.Q4_1.gguf).
import Foundation
import Lantern

/// The trails the app knows: name, state, distance in miles.
let trails: [(name: String, state: String, miles: Double)] = [
    ("Angels Landing", "Utah", 5.4), ("Delicate Arch", "Utah", 3.2), ("Emerald Pools", "Utah", 3.0),
    ("Half Dome", "California", 16.0), ("Lost Lake Loop", "California", 4.1),
    ("Mount Si", "Washington", 8.0), ("Bright Angel", "Arizona", 15.3),
]
let states = Array(Set(trails.map(\.state))).sorted()

/// The typed answer: its schema bounds every value, so a small model cannot ramble.
struct TrailList: Generable, Codable, Sendable {
    struct Trail: Generable, Codable, Sendable {
        var name: String
        var state: String
        var miles: Double
        static let generationSchema: GenerationSchema = .object([
            .property("name", .string(description: "The trail's title", maxLength: 40)),
            .property("state", .string(anyOf: states)),
            .property("miles", .number(description: "The trail's distance in miles", in: 0...100)),
        ])
    }
    var trails: [Trail]
    static let generationSchema: GenerationSchema = .object([
        .property("trails", .array(of: .generable(Trail.self), minItems: 1, maxItems: 5)),
    ])
}

let question = CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : "List the trails in Utah with their distance."
let modelPath = ProcessInfo.processInfo.environment["LANTERN_MODEL"] ?? "models/SmolLM2-135M-Instruct.Q4_1.gguf"
let folder = FileManager.default.temporaryDirectory.appendingPathComponent("structured-output-\(UUID().uuidString)")
defer { try? FileManager.default.removeItem(at: folder) }

do {
    guard let distance = CustomAttributeKey(keyName: "distance") else {
        FileHandle.standardError.write(Data("StructuredOutput: \"distance\" is not a valid custom attribute name\n".utf8))
        exit(1)
    }
    let index = try SearchableIndex(url: folder.appendingPathComponent("trails.sqlite"))
    try await index.indexSearchableItems(trails.map { trail in
        var attributes = SearchableItemAttributeSet(contentType: "public.text")
        attributes.title = trail.name
        attributes.stateOrProvince = trail.state
        attributes.setValue(.number(trail.miles), forCustomKey: distance)
        return SearchableItem(uniqueIdentifier: trail.name, attributeSet: attributes)
    })

    let model = try LocalModel(contentsOf: URL(fileURLWithPath: modelPath))
    let search = SearchTool(configuration: .init(
        sources: [.index(IndexSource(index: index, fetchAttributes: [.title, .stateOrProvince, distance.attribute],
                                     customAttributeKinds: [distance.attribute: .number]))],
        guide: .focused()))
    let instructions = try await SearchInstructions(notes: [distance.attribute: .init("the trail's length", unit: "miles")])
        .render(for: index)
    let session = LanguageModelSession(model: model, tools: [search], instructions: instructions, maximumToolRounds: 1)
    let response = try await session.respond(
        to: question, generating: TrailList.self, options: GenerationOptions(maximumResponseTokens: 200, toolCallingMode: .required))

    print("Q: \(question)")
    let searches = response.transcriptEntries.flatMap { entry -> [String] in
        if case .toolCalls(let calls) = entry { calls.calls.map { "\($0.arguments)" } } else { [] }
    }
    for search in Set(searches).sorted() { print("searched: \(search)") }
    print("Decoded \(TrailList.self) with \(response.content.trails.count) trails:")
    for trail in response.content.trails {
        print("  \(trail.name), \(trail.state): \(trail.miles) miles")
    }
} catch {
    FileHandle.standardError.write(Data("StructuredOutput: \(error)\n".utf8))
    exit(1)
}
