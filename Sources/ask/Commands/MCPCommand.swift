import CommandLineArguments
import Foundation
import Lantern
import LanternMCP

/// `ask mcp`: the search and fetch tools over an index, served to an MCP client on stdin and
/// stdout. The index is opened as `ask` opens it (`--index`, `--folder`, `--corpus`, the same
/// embedding model); no model is loaded, since the client's model calls the tools.
struct MCPCommand: Command {
    static let configuration = CommandConfiguration(
        tool: "ask", name: "mcp", abstract: "Serve the search and fetch tools over an index to an MCP client (stdio; no model is loaded).",
        discussion: [
            "Speaks the Model Context Protocol on stdin and stdout, one JSON-RPC message per line; progress and",
            "log lines go to stderr. Revision 2026-07-28 (stateless: server/discover, each request's _meta) and the",
            "handshake revisions 2025-11-25 to 2024-11-05 (initialize) are served side by side. The index is opened",
            "in the background: the client connects at once, and its tool calls wait until a folder or corpus is",
            "indexed. It ends when the client closes stdin.",
            "",
            "EXAMPLE, in an MCP client's configuration:",
            "  {\"mcpServers\": {\"notes\": {\"command\": \"/path/to/ask\", \"args\": [\"mcp\", \"--folder\", \"/home/me/notes\"]}}}",
        ])

    @OptionGroup var data: DataOptions
    @OptionGroup var guide: GuideOptions

    func run() async throws -> Int32 {
        let selection = try data.soleSelection(usage: Self.usage)
        let opener = data.opener
        let (level, format) = (guide.level, guide.format)
        let server = MCPServer(identity: .init(name: "lantern", version: Ask.version, instructions: Self.instructions),
                               log: { Terminal.error("ask mcp: \($0)\n") }) {
            let opened = try await opener.open(selection)
            Terminal.error("ask mcp: serving '\(opened.name)' (\(opened.itemCount) items)\(opened.summary.map { "; \($0)" } ?? "")\n")
            let tool = try await SearchSetup(index: opened.index, guide: level, format: format).makeTool()
            // Each call's replies come back in its result; the tool's stream of them, which
            // nobody reads here, would keep every reply of the server's life.
            tool.finish()
            return [.search(tool), .fetch(of: tool)]
        }
        await server.serve(StandardInputLines.stream())
        return 0
    }

    /// What the client may tell its model about the server.
    static let instructions = "Search the user's own documents with the search tool, read an item in full with the fetch tool by an id the search returned, and answer from what they returned."
}
