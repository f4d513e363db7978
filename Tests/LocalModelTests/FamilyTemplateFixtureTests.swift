import Foundation
import Testing
@testable import LocalModel

/// The real templates of the families with their own tool layouts are read as llama.cpp reads
/// them: each is detected as the built-in layout llama.cpp picks for it.
@Suite("Family template fixtures")
struct FamilyTemplateFixtureTests {
    @Test(arguments: TemplateFamily.allCases)
    func theFixtureIsDetectedAsLlamaDetectsIt(family: TemplateFamily) throws {
        let text = try family.template()
        #expect(ChatTemplate(template: text, architecture: "llama").name == family.detectedLayout)
    }

    @Test func everyFixtureIsListedInTheReadme() throws {
        let readme = try String(contentsOf: TemplateFamily.fixtures.appendingPathComponent("README.md"), encoding: .utf8)
        for family in TemplateFamily.allCases { #expect(readme.contains(family.fixtureName), "\(family)") }
    }
}
