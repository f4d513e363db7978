import Foundation
import LocalModel
import RemoteModel
import SearchTool
import Testing
import TestModelSupport
import TokenBudget

/// `OpenAICompatibleModel` against a real llama-server on the test model. Every check is about
/// what Lantern guarantees over the remote model (a constrained call, a loop that ends, counts
/// that agree, typed errors), never about what the model chooses to write.
@Suite(.serialized) struct OpenAICompatibleModelTests {
    @Test func aWholeQuestionRunsThroughTheRemoteModelWithAConstrainedCallAndSources() async throws {
        let server = try await RemoteTestServer.shared()
        let model = try await OpenAICompatibleModel(url: server.url)
        #expect(model.server == .llamaServer)
        #expect(model.templateSource == .server && model.countingSource == .server)
        #expect(model.defaultContextWindow.tokens == RemoteTestServer.context, "the window is the server's n_ctx")
        let setup = try await RemoteTestServer.notes()
        let (session, tool) = setup.makeSession(model: model, window: nil, thinking: false)
        defer { tool.finish() }
        // the loop ends: with an answer, or with the session's typed round-limit error when the
        // model keeps calling where it must answer (which of the two is the model's choice)
        let response: LanguageModelSession.Response<String>?
        do {
            response = try await session.respond(to: "Where did we camp?",
                                                 options: GenerationOptions(maximumResponseTokens: 160, toolCallingMode: .required))
        } catch LanguageModelSession.GenerationError.toolRoundLimitReached {
            response = nil
        }
        let entries: [Transcript.Entry] = response.map { Array($0.transcriptEntries) } ?? Array(session.transcript)
        let calls = entries.flatMap { entry -> [Transcript.ToolCall] in
            if case .toolCalls(let batch) = entry { batch.calls } else { [] }
        }
        // the required first round is a call the grammar wrote: it parses and fits the schema
        let first = try #require(calls.first, "no call; transcript: \(entries.map(\.text))")
        #expect([tool.name, tool.fetchTool.name].contains(first.toolName))
        for call in calls {
            let schema = call.toolName == tool.name ? tool.parameters : tool.fetchTool.parameters
            #expect(throws: Never.self) { try schema.validate(call.arguments, rootName: "arguments") }
        }
        let outputs = entries.compactMap { entry -> Transcript.ToolOutput? in
            if case .toolOutput(let output) = entry { output } else { nil }
        }
        #expect(!outputs.isEmpty)
        guard let response else { return }
        // what the tools showed is the response's sources
        if outputs.contains(where: { !$0.isError }) { #expect(!response.sources.isEmpty, "tool outputs but no sources") }
        for output in outputs { #expect(Set(output.sources.map(\.id)).isSubset(of: Set(response.sources.map(\.id)))) }
        #expect(response.usage.generatedTokens > 0 && response.usage.promptTokens > 0, "the server's counts reach the usage")
    }

    @Test func aStreamedRoundArrivesInSeveralPieces() async throws {
        let server = try await RemoteTestServer.shared()
        let model = try await OpenAICompatibleModel(url: server.url)
        let conversation = try model.makeConversation(window: model.defaultContextWindow)
        // the grammar leaves one text, longer than any token, so it must come in several
        let sentence = "one two three four five six seven eight"
        let parameters = GenerationParameters(maximumTokens: 64, grammar: GrammarConstraint(gbnf: "root ::= \"\(sentence)\""))
        var pieces: [String] = []
        var summary: GenerationSummary?
        for try await event in conversation.generate(prompt: "<|im_start|>user\nCount.<|im_end|>\n<|im_start|>assistant\n", parameters: parameters) {
            switch event {
            case .text(let text): pieces.append(text)
            case .finished(let finished): summary = finished
            }
        }
        #expect(pieces.count > 1, "one piece: \(pieces)")
        #expect(pieces.joined() == sentence)
        // the server counts the end-of-generation token too, which writes no text
        #expect((summary?.generatedTokens ?? 0) >= pieces.count)
        #expect((summary?.promptTokens ?? 0) > 0)
    }

    @Test func cancellingTheTaskClosesTheRequestAndTheServerStopsGenerating() async throws {
        let server = try await RemoteTestServer.shared()
        let model = try await OpenAICompatibleModel(url: server.url)
        let conversation = try model.makeConversation(window: model.defaultContextWindow)
        // the grammar leaves one text of 400 tokens at least; the task is cancelled at the first
        let forced = 400
        let parameters = GenerationParameters(maximumTokens: forced + 50, grammar: GrammarConstraint(gbnf: #"root ::= (" x"){\#(forced)}"#))
        let before = try await RemoteTestServer.tokensGenerated(server)
        let reader = Task {
            var pieces = 0
            for try await event in conversation.generate(prompt: "Write x.", parameters: parameters) {
                if case .text = event { pieces += 1 }
                if pieces == 1 { withUnsafeCurrentTask { $0?.cancel() } }
            }
            return pieces
        }
        // a cancelled task's stream ends early (AsyncThrowingStream ends, or throws CancellationError)
        let pieces = (try? await reader.value) ?? 0
        #expect(pieces < forced)
        // the server records a request's tokens when it ends it; it ends this one when it
        // finds the connection closed, long before the grammar's 400 tokens
        try await RemoteTestServer.waitUntilIdle(server)
        let generated = try await RemoteTestServer.tokensGenerated(server) - before
        #expect(generated < Double(forced), "the server generated \(generated) tokens after the request was cancelled")
    }

    @Test func theServersTokenCountsAreTheLocalVocabularys() async throws {
        let server = try await RemoteTestServer.shared()
        let remote = try await OpenAICompatibleModel(url: server.url)
        let vocabulary = try RemoteTestServer.vocabulary()
        let exact = try await OpenAICompatibleModel(url: server.url, configuration: .init(vocabulary: vocabulary))
        #expect(exact.countingSource == .vocabulary && exact.templateSource == .vocabulary)
        #expect(remote.chatTemplate == exact.chatTemplate, "the server's template reads as the file's layout")
        let texts = ["Where did we camp?", "<|im_start|>user\nHello<|im_end|>\n", "  spaced   out\n\n\ttabs", "ünïcödé, 日本語 and emoji 🏕️",
                     String(repeating: "long text ", count: 300)]
        for text in texts {
            for parseSpecial in [false, true] {
                let local = try vocabulary.tokenizer.countTokens(in: text, parseSpecial: parseSpecial)
                #expect(try remote.tokenCounter.countTokens(in: text, parseSpecial: parseSpecial) == local, "\(text.prefix(30)) parseSpecial \(parseSpecial)")
            }
        }
        for markup in ["<|im_start|>", "<|im_end|>", "<tool_call>"] {
            #expect(remote.singleTokens(spelling: markup) == vocabulary.singleTokens(spelling: markup), "\(markup)")
        }
    }

    @Test func theBudgetRefusesAnOversizedPromptBeforeAnyRequest() async throws {
        let server = try await RemoteTestServer.shared()
        let model = try await OpenAICompatibleModel(url: server.url)
        let before = try await RemoteTestServer.promptTokensDecoded(server)
        let session = LanguageModelSession(model: model, instructions: "Answer briefly.")
        let question = String(repeating: "How far is the lake from the camp site? ", count: 600)
        await #expect {
            try await session.respond(to: question)
        } throws: { error in
            guard case LanguageModelSession.GenerationError.exceededContextWindowSize = error else { return false }
            return true
        }
        #expect(try await RemoteTestServer.promptTokensDecoded(server) == before, "the server decoded a prompt the budget refused")
    }

    @Test func anUnreachableServerIsATypedError() async throws {
        // a port this process held and let go: nothing listens there
        let url = try #require(URL(string: "http://127.0.0.1:\(try LoopbackPort.free())"))
        await #expect {
            _ = try await OpenAICompatibleModel(url: url)
        } throws: { error in
            guard case OpenAICompatibleModelError.serverUnreachable = error else { return false }
            return "\(error)".contains("127.0.0.1")
        }
    }

    /// `https` goes through TLS with the system's trust: a server whose certificate no
    /// authority signed is refused with the typed error, before any request reaches it.
    @Test func anHTTPSServerWithAnUntrustedCertificateIsRefused() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lantern-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (key, certificate) = (folder.appendingPathComponent("key.pem").path, folder.appendingPathComponent("cert.pem").path)
        try Self.run("/usr/bin/openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate,
                                          "-days", "1", "-subj", "/CN=127.0.0.1"])
        let port = try LoopbackPort.free()
        // a TLS server that would answer every request with 200 and a model list
        let script = """
            import http.server, ssl, sys
            class Answer(http.server.BaseHTTPRequestHandler):
                def do_GET(self):
                    body = b'{"data": [{"id": "m"}]}'
                    self.send_response(200); self.send_header("Content-Length", str(len(body))); self.end_headers(); self.wfile.write(body)
                def log_message(self, *arguments): pass
            server = http.server.HTTPServer(("127.0.0.1", int(sys.argv[1])), Answer)
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER); context.load_cert_chain(sys.argv[2], sys.argv[3])
            server.socket = context.wrap_socket(server.socket, server_side=True)
            print("ready", flush=True)
            server.serve_forever()
            """
        let tls = Process()
        tls.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        tls.arguments = ["-c", script, String(port), certificate, key]
        let output = Pipe()
        tls.standardOutput = output
        try tls.run()
        defer {
            // SIGKILL: a child of the test runner may inherit a mask that blocks SIGTERM
            kill(tls.processIdentifier, SIGKILL)
            tls.waitUntilExit()
        }
        _ = output.fileHandleForReading.availableData   // "ready": listening
        let url = try #require(URL(string: "https://127.0.0.1:\(port)"))
        await #expect {
            _ = try await OpenAICompatibleModel(url: url)
        } throws: { error in
            guard case OpenAICompatibleModelError.secureConnectionFailed = error else { return false }
            return true
        }
    }

    /// Runs `executable` to its end; throws when it fails.
    static func run(_ executable: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw LlamaServerProcessError(reason: "\(executable) exited with \(process.terminationStatus)") }
    }

    @Test func aMissingOrWrongKeyIsATypedErrorAndTheRightOneWorks() async throws {
        let key = "lantern-remote-test-key"
        let server = try await LlamaServerProcess(model: TestModel.url, context: 1024, arguments: ["--api-key", key])
        defer { server.stop() }
        for (given, sent) in [(nil, false), ("not-the-key", true)] as [(String?, Bool)] {
            await #expect {
                _ = try await OpenAICompatibleModel(url: server.url, configuration: .init(apiKey: given))
            } throws: { error in
                guard case OpenAICompatibleModelError.unauthorized(_, let status, _, let keySent) = error else { return false }
                return status == 401 && keySent == sent
            }
        }
        let model = try await OpenAICompatibleModel(url: server.url, configuration: .init(apiKey: key))
        // the key goes with every request, counting and generating too
        #expect(try model.tokenCounter.countTokens(in: "Where did we camp?") > 0)
        let conversation = try model.makeConversation(window: model.defaultContextWindow)
        var text = ""
        for try await event in conversation.generate(prompt: "Hello", parameters: GenerationParameters(maximumTokens: 4, grammar: GrammarConstraint(gbnf: "root ::= \"ok\""))) {
            if case .text(let piece) = event { text += piece }
        }
        #expect(text == "ok")
    }

    @Test func aModelTheServerDoesNotServeIsATypedErrorNamingTheServedOnes() async throws {
        let server = try await RemoteTestServer.shared()
        let served = try await OpenAICompatibleModel(url: server.url).modelName
        await #expect {
            _ = try await OpenAICompatibleModel(url: server.url, configuration: .init(model: "no-such-model"))
        } throws: { error in
            guard case OpenAICompatibleModelError.unknownModel("no-such-model", let list, _) = error else { return false }
            return list.contains(served)
        }
        // the served name itself is accepted
        #expect(try await OpenAICompatibleModel(url: server.url, configuration: .init(model: served)).modelName == served)
    }

    @Test func aGrammarTheServerRefusesIsATypedError() async throws {
        let server = try await RemoteTestServer.shared()
        let model = try await OpenAICompatibleModel(url: server.url)
        let conversation = try model.makeConversation(window: model.defaultContextWindow)
        await #expect {
            for try await _ in conversation.generate(prompt: "Hello", parameters: GenerationParameters(maximumTokens: 4, grammar: GrammarConstraint(gbnf: "root ::= undefined-rule"))) {}
        } throws: { error in
            guard case OpenAICompatibleModelError.grammarRefused = error else { return false }
            return true
        }
    }

    @Test func aWindowLargerThanTheServersIsRefused() async throws {
        let server = try await RemoteTestServer.shared()
        await #expect {
            _ = try await OpenAICompatibleModel(url: server.url, configuration: .init(contextWindow: ContextWindow(tokens: RemoteTestServer.context * 2)))
        } throws: { error in
            guard case OpenAICompatibleModelError.contextLargerThanServer = error else { return false }
            return true
        }
    }
}
