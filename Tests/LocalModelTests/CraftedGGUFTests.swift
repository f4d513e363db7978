import Foundation
import Testing
import LocalModel
import TestModelSupport

/// GGUF headers written to break the header reader: every number in them comes from the file,
/// and each one that cannot be right must end in `LocalModelError.corruptFile` naming the
/// field, never a trap (these crashed the process with SIGILL before the reader checked them).
@Suite("Crafted GGUF headers are reported, not crashed on")
struct CraftedGGUFTests {
    /// Writes `writer`'s file, reads its header, and returns the reason of the corruptFile error.
    private func corruptReason(_ writer: GGUFWriter, sourceLocation: SourceLocation = #_sourceLocation) throws -> String? {
        try corruptReason(writer.data(), sourceLocation: sourceLocation)
    }

    private func corruptReason(_ data: Data, sourceLocation: SourceLocation = #_sourceLocation) throws -> String? {
        let file = try TestModel.temporaryDirectory().appendingPathComponent("crafted.gguf")
        try data.write(to: file)
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        do {
            _ = try GGUFFile(contentsOf: file)
            Issue.record("the crafted header was accepted", sourceLocation: sourceLocation)
            return nil
        } catch {
            guard case .corruptFile(let path, let reason) = error else {
                Issue.record("expected corruptFile, got \(error)", sourceLocation: sourceLocation)
                return nil
            }
            #expect(path == file.path, sourceLocation: sourceLocation)
            return reason
        }
    }

    private func oneTensor(_ tensor: GGUFWriter.Tensor, dataSize: Int = 64) -> GGUFWriter {
        var writer = GGUFWriter()
        writer.tensors = [tensor]
        writer.dataSize = dataSize
        return writer
    }

    @Test func aValidCraftedFileReads() throws {
        // the writer itself is right: the same layout with sane numbers is accepted
        var writer = oneTensor(.init(name: "token_embd.weight", dimensions: [4, 4], type: 0))
        writer.metadata.append(("general.alignment", .uint32(32)))
        let file = try TestModel.temporaryDirectory().appendingPathComponent("valid.gguf")
        try writer.write(to: file)
        let header = try GGUFFile(contentsOf: file)
        #expect(header.tensorCount == 1)
        #expect(header.requiredSize == header.fileSize)
        #expect(header.dataOffset == 32 * ((header.dataOffset + 31) / 32))
    }

    @Test func alignmentZeroIsNamed() throws {
        var writer = oneTensor(.init(name: "token_embd.weight", dimensions: [4], type: 0))
        writer.metadata.append(("general.alignment", .uint32(0)))
        let reason = try corruptReason(writer)
        #expect(reason?.contains("general.alignment") == true, "\(reason ?? "")")
        #expect(reason?.contains("power of two") == true, "\(reason ?? "")")
    }

    @Test func alignmentThatIsNotAUInt32PowerOfTwoIsNamed() throws {
        // llama.cpp reads the alignment as a uint32 and asserts (aborts) on any other type
        for alignment: GGUFWriter.Value in [.uint32(3), .uint32(48), .int32(-32), .int32(32), .uint64(UInt64(1) << 63), .uint64(32), .string("32")] {
            var writer = oneTensor(.init(name: "token_embd.weight", dimensions: [4], type: 0))
            writer.metadata.append(("general.alignment", alignment))
            let reason = try corruptReason(writer)
            #expect(reason?.contains("general.alignment") == true, "\(alignment): \(reason ?? "")")
        }
    }

    @Test func theLargestAlignmentIsOnlyTruncation() throws {
        // 2^31 is a valid alignment: the data would start 2 GiB in, past the end of this file
        var writer = oneTensor(.init(name: "token_embd.weight", dimensions: [4], type: 0))
        writer.metadata.append(("general.alignment", .uint32(1 << 31)))
        let reason = try corruptReason(writer)
        #expect(reason?.contains("truncated") == true, "\(reason ?? "")")
    }

    @Test func dimensionBeyondInt64IsNamed() throws {
        let reason = try corruptReason(oneTensor(.init(name: "blk.0.attn_q.weight", dimensions: [4, UInt64.max], type: 0)))
        #expect(reason?.contains("blk.0.attn_q.weight") == true, "\(reason ?? "")")
        #expect(reason?.contains("dimension 2") == true, "\(reason ?? "")")
    }

    @Test func dimensionsWhoseProductOverflowsAreNamed() throws {
        let reason = try corruptReason(oneTensor(.init(name: "output.weight", dimensions: [1 << 32, 1 << 32], type: 0)))
        #expect(reason?.contains("output.weight") == true, "\(reason ?? "")")
        #expect(reason?.contains("elements") == true, "\(reason ?? "")")
    }

    @Test func dimensionsWhoseProductOverflowsBesideAZeroAreNamed() throws {
        // zero elements in all, but ggml multiplies the others first and aborted the process
        // (found by scripts/fuzz.sh gguf)
        let reason = try corruptReason(oneTensor(.init(name: "token_embd.weight", dimensions: [3 << 32, 0, 0xB4_0000_0008_0000, 1], type: 0)))
        #expect(reason?.contains("token_embd.weight") == true, "\(reason ?? "")")
        #expect(reason?.contains("elements") == true, "\(reason ?? "")")
    }

    @Test func byteCountOverflowIsNamed() throws {
        // 2^62 F32 values are 2^64 bytes: the element count fits in Int64, the byte count does not
        let reason = try corruptReason(oneTensor(.init(name: "output_norm.weight", dimensions: [1 << 62], type: 0)))
        #expect(reason?.contains("output_norm.weight") == true, "\(reason ?? "")")
        #expect(reason?.contains("bytes") == true, "\(reason ?? "")")
    }

    @Test func offsetThatOverflowsIsNamed() throws {
        for offset in [UInt64(Int64.max), UInt64.max, UInt64(Int64.max) - 8] {
            let reason = try corruptReason(oneTensor(.init(name: "token_embd.weight", dimensions: [4], type: 0, offset: offset)))
            #expect(reason?.contains("token_embd.weight") == true, "\(offset): \(reason ?? "")")
            #expect(reason?.contains("offset") == true, "\(offset): \(reason ?? "")")
        }
    }

    @Test func rowThatIsNotWholeBlocksIsNamed() throws {
        // Q4_0 packs 32 values per block; a row of 33 cannot be stored
        let reason = try corruptReason(oneTensor(.init(name: "blk.0.ffn_up.weight", dimensions: [33, 2], type: 2)))
        #expect(reason?.contains("blk.0.ffn_up.weight") == true, "\(reason ?? "")")
        #expect(reason?.contains("32") == true, "\(reason ?? "")")
    }

    @Test func unknownTensorTypeIsNamed() throws {
        let reason = try corruptReason(oneTensor(.init(name: "token_embd.weight", dimensions: [4], type: 9_999)))
        #expect(reason?.contains("token_embd.weight") == true, "\(reason ?? "")")
        #expect(reason?.contains("9999") == true, "\(reason ?? "")")
    }

    @Test func tooManyDimensionsAreNamed() throws {
        let reason = try corruptReason(oneTensor(.init(name: "token_embd.weight", dimensions: Array(repeating: 1, count: 9), type: 0)))
        #expect(reason?.contains("token_embd.weight") == true, "\(reason ?? "")")
    }

    @Test func nestedArraysAreRefusedWithoutRecursing() throws {
        // 200,000 levels of array-in-array: reading them recursively overflowed the stack
        let reason = try corruptReason(GGUFWriter.nestedArrays(depth: 200_000))
        #expect(reason?.contains("general.nested") == true, "\(reason ?? "")")
    }

    @Test func theLoaderReportsTheSameErrorAsTheHeaderReader() throws {
        var writer = oneTensor(.init(name: "token_embd.weight", dimensions: [4], type: 0))
        writer.metadata.append(("general.alignment", .uint32(0)))
        let file = try TestModel.temporaryDirectory().appendingPathComponent("zero-alignment.gguf")
        try writer.write(to: file)
        #expect {
            try LocalModel(contentsOf: file)
        } throws: { error in
            guard case .corruptFile(_, let reason)? = error as? LocalModelError else { return false }
            return reason.contains("general.alignment")
        }
    }
}
