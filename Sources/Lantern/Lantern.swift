/// Lantern: ask questions of your own data with a local model, in one import.
///
/// An app that answers from its own items needs all four layers together: the model and its
/// sessions (`LocalModel`), the index it fills (`SearchIndex`), the tool that lets the model
/// search that index (`SearchTool`) and the token counts that keep a prompt inside the window
/// (`TokenBudget`). Re-exporting them here lets the app write `import Lantern` and name the one
/// `Lantern` product, as an app names `FoundationModels`; the modules stay separate products for
/// code that wants only one layer (an indexer that never loads a model, say).
///
/// It is also the app layer every front end shares (`ask`, `ask mcp`, `eval`, `bench`): a model
/// loaded by its models.lock name or path (`ModelLoader`), an index opened or built from a
/// folder, a corpus or a name (`IndexOpener`), and a question answered into a report with
/// numbered sources (`QuestionAnswerer`), so each front end keeps only its own input and output.
///
/// ```swift
/// import Lantern
///
/// let model = try LocalModel(contentsOf: modelURL)
/// let tool = SearchTool(configuration: .init(sources: [.files(FileSource(scopes: [notesFolder]))]))
/// let session = LanguageModelSession(model: model, tools: [tool, tool.fetchTool])
/// print(try await session.respond(to: "What did I write about the garden?").content)
/// ```
@_exported import LocalModel
@_exported import RemoteModel
@_exported import SearchIndex
@_exported import SearchTool
@_exported import Sentences
@_exported import TokenBudget
