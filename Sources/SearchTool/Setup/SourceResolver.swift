import Foundation
import SearchIndex

/// One source ready to search: an open index and what the model may see from it.
struct ResolvedSource: Sendable {
    var name: String
    var index: SearchableIndex
    var delegate: (any SearchableIndexDelegate)?
    var fetchAttributes: [SearchableItemAttribute]
    var maximumResultCount: Int?
}

/// Opens the configured sources on first use and keeps them: the default named index when the
/// configuration lists none, and a private index per files source, refreshed (changed files
/// only) before its first search. Shared by the search tool and its fetch tool.
actor SourceResolver {
    private let sources: [SearchSource]
    private var resolved: [ResolvedSource]?

    init(sources: [SearchSource]) {
        self.sources = sources
    }

    func sources() async throws(SearchToolError) -> [ResolvedSource] {
        if let resolved { return resolved }
        var result: [ResolvedSource] = []
        if sources.isEmpty {
            do {
                result.append(ResolvedSource(name: "default index", index: try SearchableIndex(name: "default"), delegate: nil,
                                             fetchAttributes: [.title], maximumResultCount: 20))
            } catch {
                throw .sourceFailed(source: "default index", reason: error.description)
            }
        }
        for source in sources {
            switch source {
            case .index(let index):
                result.append(ResolvedSource(name: index.index.fileURL.lastPathComponent, index: index.index, delegate: index.delegate,
                                             fetchAttributes: index.fetchAttributes, maximumResultCount: index.maximumResultCount))
            case .files(let files):
                result.append(try await open(files))
            }
        }
        resolved = result
        return result
    }

    private func open(_ files: FilesSource) async throws(SearchToolError) -> ResolvedSource {
        let name = "files in " + files.source.scopes.map(\.path).joined(separator: ", ")
        do {
            let url = try files.indexURL ?? Self.defaultFilesIndexURL(for: files.source.scopes)
            let index = try SearchableIndex(url: url)
            _ = try await files.source.refresh(into: index)
            return ResolvedSource(name: name, index: index, delegate: nil, fetchAttributes: files.fetchAttributes,
                                  maximumResultCount: files.maximumResultCount)
        } catch let error as SearchIndexError {
            throw .sourceFailed(source: name, reason: error.description)
        } catch {
            throw .sourceFailed(source: name, reason: String(describing: error))
        }
    }

    /// `files-<hash of the scopes>.sqlite` beside the named indexes.
    private static func defaultFilesIndexURL(for scopes: [URL]) throws(SearchIndexError) -> URL {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in scopes.map(\.standardizedFileURL.path).joined(separator: "\n").utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        return try SearchableIndex.defaultURL(name: "files-" + String(hash, radix: 16))
    }
}
