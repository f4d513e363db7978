import Foundation
import LocalModel
import Testing
@testable import VisionTools

/// Both tools in a real session with the default model: under `.required` the model must call
/// one of them, and the grammar built from `parameters(for:)` lets it name only the label of
/// the image actually attached.
@Suite struct VisionSessionTests {
    @Test func theModelCallsAToolWithTheAttachedImagesLabel() async throws {
        let images = try TestImages()
        let payload = "TRACK-\(Int.random(in: 100_000...999_999))"
        let image = try images.qrCode(payload, named: "parcel-label-7")
        let session = LanguageModelSession(model: try TestModel.shared(), tools: [OCRTool(), BarcodeReaderTool()],
                                           instructions: "You help the user understand images they attach. Use a tool to read an image.")
        let prompt = Prompt("What is the tracking number on this parcel?", attachments: [image])
        _ = try await session.respond(to: prompt, options: GenerationOptions(maximumResponseTokens: 96, toolCallingMode: .required))

        let calls = session.transcript.flatMap { entry -> [Transcript.ToolCall] in
            if case .toolCalls(let turn) = entry { return turn.calls } else { return [] }
        }
        let outputs = session.transcript.compactMap { entry -> Transcript.ToolOutput? in
            if case .toolOutput(let output) = entry { return output } else { return nil }
        }
        #expect(!calls.isEmpty)
        for call in calls {
            #expect(["read_text", "read_barcodes"].contains(call.toolName))
            #expect(call.arguments["image"]?.stringValue == "parcel-label-7")
        }
        // each call ran against the real file: no error, and the barcode reader decoded the code
        for call in calls {
            let output = try #require(outputs.first { $0.id == call.id }, "no output for call \(call.id)")
            #expect(!output.isError, "\(output.text)")
            #expect(output.text.contains("\"parcel-label-7\""))
            if call.toolName == "read_barcodes" { #expect(output.text.contains(payload)) }
        }
    }
}
