// NotesQA: index a folder of Markdown notes, then answer questions about them with a local model
// that searches the notes (search tool) and reads the ones it needs (fetch tool).
//
//   NotesQA <notes-folder> <question> [<question> ...]
//
// The model file comes from $LANTERN_MODEL (default: models/SmolLM2-135M-Instruct.Q4_1.gguf).
import Foundation
import Lantern

let arguments = CommandLine.arguments.dropFirst()
guard let folder = arguments.first, arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: NotesQA <notes-folder> <question> [<question> ...]\n".utf8))
    exit(2)
}
let questions = arguments.dropFirst()
let modelPath = ProcessInfo.processInfo.environment["LANTERN_MODEL"] ?? "models/SmolLM2-135M-Instruct.Q4_1.gguf"

do {
    // A persistent named index: a second run reads only the notes that changed.
    let index = try SearchableIndex(name: "notes-qa")
    let report = try await FileSource(scopes: [URL(fileURLWithPath: folder)]).refresh(into: index)
    print("Indexed \(folder): \(report.indexed) new or changed, \(report.unchanged) unchanged, \(report.removed) removed.")

    let model = try LocalModel(contentsOf: URL(fileURLWithPath: modelPath))
    // The instructions describe what the index holds, read from the index itself.
    let instructions = try await SearchInstructions().render(for: index)

    for question in questions {
        // One tool per question: its `searchResults` stream carries this question's results.
        let tool = SearchTool(configuration: .init(
            sources: [.index(IndexSource(index: index, fetchAttributes: [.title, .path]))],
            guide: .focused(.documents)))
        let found = Task {
            var items: [SearchableItem] = []
            for await reply in tool.searchResults where reply.status == .complete { items += reply.content.items }
            return items
        }
        let session = LanguageModelSession(model: model, tools: [tool, tool.fetchTool], instructions: instructions)
        let response = try await session.respond(
            to: question, options: GenerationOptions(maximumResponseTokens: 120, toolCallingMode: .required))
        tool.finish()

        let fetched = Set(session.transcript.flatMap { entry -> [String] in
            guard case .toolCalls(let calls) = entry else { return [] }
            return calls.calls.filter { $0.toolName == tool.fetchTool.name }.compactMap { $0.arguments["id"]?.stringValue }
        })
        print("\nQ: \(question)\nA: \(response.content)\nSources:")
        var listed = Set<String>()
        for item in await found.value where listed.insert(item.uniqueIdentifier).inserted {
            let title = item.attributeSet.title ?? item.uniqueIdentifier
            print("  \(fetched.contains(item.uniqueIdentifier) ? "read" : "seen")  \(title)  (\(item.attributeSet.path ?? item.uniqueIdentifier))")
        }
        if listed.isEmpty { print("  (the search found nothing)") }
    }
} catch {
    FileHandle.standardError.write(Data("NotesQA: \(error)\n".utf8))
    exit(1)
}
