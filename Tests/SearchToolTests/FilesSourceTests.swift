import Foundation
import LocalModel
import SearchIndex
import SearchTool
import Testing

/// The files source: folders indexed privately, searched, and read through the fetch tool.
@Suite struct FilesSourceTests {
    static let files: [(path: String, text: String)] = [
        ("notes/lake-trip.md", "# Lake Trip\n\nWe swam in the alpine lake below the ridge.\n"),
        ("notes/deep/gear.txt", "Pack spare batteries for the headlamp and a water filter.\n"),
        ("todo.md", "# Todo\n\nRenew the parking permit.\n"),
    ]

    /// A folder with the files, and a tool over it whose private index sits beside it.
    static func tool(fetch: [SearchableItemAttribute]) throws -> (SearchTool, URL) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("lantern-files-\(UUID().uuidString)")
        let folder = root.appendingPathComponent("docs")
        for file in files {
            let url = folder.appendingPathComponent(file.path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try file.text.write(to: url, atomically: true, encoding: .utf8)
        }
        let source = FilesSource(FileSource(scopes: [folder]), fetchAttributes: fetch, indexURL: root.appendingPathComponent("files.sqlite"))
        return (SearchTool(configuration: .init(sources: [.files(source)])), folder)
    }

    /// The JSON objects of a structured result list.
    static func results(_ output: String) throws -> [JSONObject] {
        try output.split(separator: "\n").filter { $0.hasPrefix("{") }.map { try #require(try JSONValue(parsing: String($0)).objectValue) }
    }

    @Test func searchFindsFilesAndFetchReadsThem() async throws {
        let (tool, folder) = try Self.tool(fetch: [.title, .path])
        let found = try Self.results(try await tool.call(arguments: try #require(JSONValue.query(["terms": ["batteries"]]))))
        let gear = folder.appendingPathComponent("notes/deep/gear.txt").path
        #expect(found.map { $0["id"]?.stringValue } == [gear])
        let lake = try Self.results(try await tool.call(arguments: try #require(JSONValue.query(["terms": ["alpine", "lake"]]))))
        #expect(lake.map { $0["id"]?.stringValue } == [folder.appendingPathComponent("notes/lake-trip.md").path])
        #expect(lake.first?["title"]?.stringValue == "lake-trip.md")

        let read = try await tool.fetchTool.call(arguments: try FetchItemTool.Arguments(.object(["id": .string(gear)])))
        #expect(read.contains("Pack spare batteries for the headlamp and a water filter."))
        let all = try Self.results(try await tool.call(arguments: try #require(JSONValue.query(["limit": 10]))))
        #expect(all.count == Self.files.count)
    }

    @Test(arguments: [[SearchableItemAttribute.title], [.path, .fileSize], []])
    func resultsCarryExactlyTheFetchAttributes(fetch: [SearchableItemAttribute]) async throws {
        let (tool, _) = try Self.tool(fetch: fetch)
        let results = try Self.results(try await tool.call(arguments: try #require(JSONValue.query(["limit": 10]))))
        #expect(results.count == Self.files.count)
        for result in results {
            #expect(result.keys == ["id"] + fetch.map(\.rawValue))
        }
    }
}
