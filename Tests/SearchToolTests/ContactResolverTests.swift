import Foundation
import LocalModel
import SearchIndex
import SearchTool
import Testing

/// "me" on people attributes resolves to the user's names and addresses.
@Suite struct ContactResolverTests {
    struct User: ContactResolver {
        func userIdentity() -> ResolvedContact {
            ResolvedContact(displayName: "Ada Lovelace", names: ["Ada King"], emailAddresses: ["ada@example.org"])
        }
    }

    static let mail: [(id: String, authors: [String], recipients: [String], addresses: [String])] = [
        ("mail-1", ["Ada Lovelace"], ["Charles Babbage"], ["charles@example.org"]),
        ("mail-2", ["Charles Babbage"], ["Ada King"], ["charles@example.org"]),
        ("mail-3", ["Mary Somerville"], ["Charles Babbage"], ["ada@example.org", "mary@example.org"]),
        ("mail-4", ["Charles Babbage"], ["Mary Somerville"], ["mary@example.org"]),
        ("mail-5", ["Adam Smith"], ["Ada Lovelace Byron"], ["adam@example.org"]),
    ]

    static func tool(resolver: (any ContactResolver)?) async throws -> SearchTool {
        let items = mail.map { message in
            var set = SearchableItemAttributeSet(contentType: "public.email-message")
            set.title = "Message \(message.id)"
            set.authorNames = message.authors
            set.recipientNames = message.recipients
            set.emailAddresses = message.addresses
            return SearchableItem(uniqueIdentifier: message.id, attributeSet: set)
        }
        let (index, _) = try await TrailCorpus.index(extra: items)
        return SearchTool(configuration: .init(sources: [.index(IndexSource(index: index, fetchAttributes: [.title]))],
                                               guide: .dynamic(GuidanceProfile(people: true, attributes: [.title, .authorNames, .recipientNames, .emailAddresses])),
                                               contactResolver: resolver))
    }

    static func ids(_ tool: SearchTool, _ attribute: SearchableItemAttribute, _ value: String) async throws -> Set<String> {
        let arguments = try #require(JSONValue.query(["filters": [["attribute": .string(attribute.rawValue), "op": "includes", "value": .string(value)]], "limit": 20]))
        let output = try await tool.call(arguments: arguments)
        return Set(output.split(separator: "\n").filter { $0.hasPrefix("{") }.compactMap { try? JSONValue(parsing: String($0))["id"]?.stringValue })
    }

    @Test(arguments: ["me", "my", "I", "Me"])
    func meResolvesOnEachPeopleAttribute(word: String) async throws {
        let tool = try await Self.tool(resolver: User())
        let user = User().userIdentity()
        let mine = Set([user.displayName] + user.names + user.emailAddresses)
        func expected(_ values: (Int) -> [String]) -> Set<String> {
            Set(Self.mail.indices.filter { !mine.isDisjoint(with: values($0)) }.map { Self.mail[$0].id })
        }
        let authors = expected { Self.mail[$0].authors }
        let recipients = expected { Self.mail[$0].recipients }
        let addresses = expected { Self.mail[$0].addresses }
        #expect(!authors.isEmpty && !recipients.isEmpty && !addresses.isEmpty)
        #expect(try await Self.ids(tool, .authorNames, word) == authors)
        #expect(try await Self.ids(tool, .recipientNames, word) == recipients)
        #expect(try await Self.ids(tool, .emailAddresses, word) == addresses)
    }

    @Test func theSchemaSaysMeOnlyWithAResolver() async throws {
        #expect(try await Self.tool(resolver: User()).parameters.jsonSchema.jsonString.contains("\\\"me\\\""))
        #expect(!(try await Self.tool(resolver: nil).parameters.jsonSchema.jsonString.contains("\\\"me\\\"")))
    }

    @Test func withoutAResolverMeIsJustText() async throws {
        let tool = try await Self.tool(resolver: nil)
        let containingMe = Set(Self.mail.filter { $0.authors.contains { $0.lowercased().contains("me") } }.map(\.id))
        #expect(try await Self.ids(tool, .authorNames, "me") == containingMe)
        #expect(!containingMe.contains("mail-1"))
        #expect(try await Self.ids(tool, .authorNames, "Charles") == ["mail-2", "mail-4"])
    }
}
