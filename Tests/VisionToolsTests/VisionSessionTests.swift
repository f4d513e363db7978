import Foundation
import LocalModel
import Testing
@testable import VisionTools
import TestModelSupport

/// Both tools in a real session with the default model: under `.required` the model must call
/// one of them, and the grammar built from `parameters(for:)` lets it name only the label of
/// the image actually attached. Which tool it picks, and whether it calls again after the
/// first round, is the model's choice (other CPUs, other tokens); what each call names and
/// returns is the session's and the tools' guarantee.
@Suite struct VisionSessionTests {
    @Test func theModelCallsAToolWithTheAttachedImagesLabel() async throws {
        let images = try TestImages()
        let payload = "TRACK-\(Int.random(in: 100_000...999_999))"
        let image = try images.qrCode(payload, named: "parcel-label-7")
        let session = LanguageModelSession(model: try TestModel.shared(), tools: [OCRTool(), BarcodeReaderTool()],
                                           instructions: "You help the user understand images they attach. Use a tool to read an image.")
        let prompt = Prompt("What is the tracking number on this parcel?", attachments: [image])
        // 128 tokens hold the longest call the grammar admits (under 100 bytes), so the
        // required first call is always complete
        do {
            _ = try await session.respond(to: prompt, options: GenerationOptions(maximumResponseTokens: 128, toolCallingMode: .required))
        } catch LanguageModelSession.GenerationError.toolRoundLimitReached {
            // the model kept calling when it had to answer: a typed ending, after its calls ran
        }

        let entries = Array(session.transcript)
        let calls = entries.flatMap { entry -> [Transcript.ToolCall] in
            if case .toolCalls(let turn) = entry { return turn.calls } else { return [] }
        }
        let outputs = entries.compactMap { entry -> Transcript.ToolOutput? in
            if case .toolOutput(let output) = entry { return output } else { return nil }
        }
        let firstRound = entries.lazy.compactMap { if case .toolCalls(let turn) = $0 { turn } else { nil } }.first
        #expect(firstRound?.calls.isEmpty == false, "the required round made no call")
        for call in calls {
            #expect(["read_text", "read_barcodes"].contains(call.toolName))
            #expect(call.arguments["image"]?.stringValue == "parcel-label-7")
        }
        // each call ran against the real file: no error, and the barcode reader decoded the
        // code; a repeat of an earlier call was not run again and points at it
        for call in calls {
            let output = try #require(outputs.first { $0.id == call.id }, "no output for call \(call.id)")
            #expect(!output.isError, "\(output.text)")
            let ran: Transcript.ToolOutput
            if let earlier = output.repeatedCallID {
                #expect(output.text == LanguageModelSession.repeatedCallNote)
                let original = try #require(calls.first { $0.id == earlier }, "\(call.id) repeats an unknown call \(earlier)")
                #expect(original.toolName == call.toolName && original.arguments == call.arguments)
                ran = try #require(outputs.first { $0.id == earlier }, "no output for call \(earlier)")
            } else {
                ran = output
            }
            #expect(!ran.isError, "\(ran.text)")
            #expect(ran.text.contains("\"parcel-label-7\""), "\(ran.text)")
            if call.toolName == "read_barcodes" { #expect(ran.text.contains(payload), "\(ran.text)") }
        }
        // a failed output answers no call: only a later round's call cut off by the token limit
        let callIDs = Set(calls.map(\.id))
        for output in outputs where !callIDs.contains(output.id) {
            #expect(output.text.hasPrefix("Error: the call was cut off before </tool_call>"), "\(output.text)")
        }
    }
}
