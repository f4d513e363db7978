import Foundation
import Testing
import LocalModel
import TestModelSupport

/// `gpuLayers` with a GPU backend (Vulkan, from scripts/setup.sh --gpu). Machines without one
/// skip this, with the reason, instead of failing.
@Suite("Layers on a GPU")
struct GPUOffloadTests {
    @Test(.enabled(if: BackendDevice.supportsGPUOffload,
                   "no GPU backend is loaded on this machine (ggml devices: \(BackendDevice.available.map(\.name).joined(separator: ", "))); scripts/setup.sh --gpu installs Vulkan"))
    func allLayersOnTheGPUStillAnswer() async throws {
        let model = try LocalModel(contentsOf: TestModel.url, configuration: .init(threads: 2, gpuLayers: 99))
        let template = ChatTemplate(family: .chatml)
        let prompt = template.render([ChatMessage(.user, "Say hello.")])
        let (text, summary) = try await TestModel.collect(model.makeContext(window: .k4).generate(prompt: prompt, parameters: GenerationParameters(maximumTokens: 8)))
        #expect(!text.isEmpty)
        #expect(summary?.generatedTokens ?? 0 > 0)
    }
}
