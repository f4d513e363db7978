import Foundation
import Testing

/// A hand-written page under Fixtures/html and what a reader sees on it, written down with the
/// page (not taken from any extractor's output): its title, its running text, its heading
/// lines, the sentences its source wraps across lines, and its chrome — the strings of the
/// site around the text (menus, theme pickers, search, footers, banners) that must not reach
/// the index.
struct HTMLFixture: Sendable, CustomTestStringConvertible {
    var file: String
    var title: String
    /// Strings of the page's running text, each within one block of the text.
    var runningText: [String]
    /// Lines the text holds exactly: headings as `#` lines, list items, table rows.
    var lines: [String]
    /// Sentences the HTML source wraps across lines, whitespace collapsed.
    var wrappedSentences: [String]
    var chrome: [String]

    var testDescription: String { file }

    var url: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/html/\(file)")
    }

    static let all = [bookChapter, apiReference, blogPost, entities, latin1, brokenMarkup]

    static let bookChapter = HTMLFixture(
        file: "book-chapter.html",
        title: "Buffers and Lifetimes - The Kestrel Language Handbook",
        runningText: [
            "Every buffer in Kestrel belongs to exactly one scope",
            "When report returns, the buffer named samples is released automatically.",
            "Note: arenas, covered in the next section, relax the second rule",
        ],
        lines: [
            "# Buffers and Lifetimes", "## The Three Rules", "## A First Example", "### What the Compiler Checks",
            "## Views Across Calls",
            "- Each buffer has one owning scope.",
            "- A borrowed view of a buffer may not outlive the scope that owns it.",
            "- Moving a buffer into a new scope ends the old scope's claim on it.",
            "Situation | Allowed", "View used inside the owning scope | yes", "View returned from the owning scope | no",
        ],
        wrappedSentences: [
            "Every buffer in Kestrel belongs to exactly one scope, and the compiler releases it when that scope ends.",
            "They are short, but they shape almost every program you will write, so take the time to read the examples slowly.",
            "If that path leaves the owning scope, compilation stops with an error that names both places.",
            "It is the trip back up that needs care: a function may return a view only of a buffer that its caller passed in.",
        ],
        chrome: [
            "Title Page", "Foreword", "Getting Started", "Installing the Toolchain", "Your First Flight", "Values and Bindings",
            "Memory Without Fear", "Arenas and Pools", "Flocks of Tasks", "Appendix: Keyword Index",
            "Light", "Rust", "Coal", "Navy", "Ayu", "The Kestrel Language Handbook", "Print", "Search this book",
            "No search results yet", "Previous: Memory Without Fear", "Next: Arenas and Pools",
        ])

    static let apiReference = HTMLFixture(
        file: "api-reference.html",
        title: "Reservoir in tidepool::store - Rust",
        runningText: [
            "A Reservoir never grows past the capacity it was created with: a fill that would overflow it is refused",
            "Empties the reservoir and returns how many litres it held.",
        ],
        lines: [
            "# Struct tidepool::store::Reservoir", "## Examples", "## Implementations", "### impl Reservoir",
            "#### pub fn fill(&mut self, amount: u32) -> Result<u32, Overflow>", "#### pub fn drain(&mut self) -> u32",
        ],
        wrappedSentences: [
            "A fixed-capacity store of water readings, filled by a gauge and drained by the reporting task.",
            "Adds amount litres and returns the new level, or refuses the whole amount when it would pass the capacity.",
        ],
        chrome: [
            "This page needs JavaScript for search.", "Trait Implementations", "Auto Trait Implementations", "In tidepool::store",
            "Methods", "Clone", "Debug", "Sync", "Help", "Settings", "Copy item path", "§", "0.4.2",
        ])

    static let blogPost = HTMLFixture(
        file: "blog-post.html",
        title: "Grafting an Old Pear Tree | Field Notes from the Orchard",
        runningText: [
            "March 14, 2026 · Mira Okafor",
            "The cleft graft on the second limb, two weeks after wrapping.",
            "Line up the green layers, not the outer bark.",
        ],
        lines: [
            "# Grafting an Old Pear Tree", "## Choosing scion wood", "## The cleft graft",
            "1. Saw the limb off square, a hand's width above a healthy branch.",
            "2. Split the stub with a grafting knife and hold the split open with a wedge.",
            "4. Seal every cut surface with grafting wax.",
        ],
        wrappedSentences: [
            "This spring we finally tried to turn it into something better by grafting three new varieties onto its strongest limbs.",
            "We wrapped ours in damp newspaper and kept it in the cellar until the sap in the old tree began to rise.",
            "The one that failed had dried out before it was waxed, which is the most common mistake we read about.",
        ],
        chrome: [
            "Skip to content", "Field Notes from the Orchard", "Home", "Archive", "About Mira", "Subscribe", "Dark mode",
            "Tags:", "Share on Mastodon", "Related posts", "Pruning in a hard frost", "Thinning apples in June",
            "Building a cider press from scrap", "Leave a comment", "Post comment", "Written in a shed",
            "Get new posts by email", "Sign me up", "Powered by", "We use cookies", "Accept all cookies",
            "Only necessary cookies", "document.cookie", "font-family",
        ])

    static let entities = HTMLFixture(
        file: "entities.html",
        title: "The Keeper’s Log — Harbour Light Society",
        runningText: [
            "The keeper’s log for the winter of 1911 survives in the society’s archive — forty-one pages",
            "On 3 February the lamp failed twice — once at dusk",
            "the keeper’s note reads simply: “Wick trimmed, glass cleaned, light restored.”",
            "soup, bread & cheese for 4½d, and “crème caramel” on Sundays only.",
            "the sea there is rarely above 14°C, and the note on the gauge says <do not tap the glass>.",
        ],
        lines: ["# The Keeper’s Log", "## Café at the pier"],
        wrappedSentences: [
            "The caf\u{E9} beside the pier opened in 1923.",
            "Visitors who want to compare temperatures can read the gauge by the door: the sea there is rarely above 14°C, and the note on the gauge says <do not tap the glass>.",
        ],
        chrome: [
            "Est. 1898", "Front page", "Opening hours", "tickets", "Members’ area", "Advanced search", "Daily 10–17h",
            "Registered charity", "Write to the secretary", "©",
        ])

    static let latin1 = HTMLFixture(
        file: "latin1.html",
        title: "Crème brûlée à l'ancienne - Les recettes de Mamie Odile",
        runningText: [
            "Ma grand-mère préparait cette crème brûlée chaque dimanche de février",
            "Faites cuire au bain-marie à 150 °C pendant quarante minutes",
            "« Le sucre doit craquer sous la cuillère », disait-elle.",
        ],
        lines: [
            "# Crème brûlée à l'ancienne", "## Ingrédients pour six ramequins", "## Préparation",
            "- un demi-litre de crème entière", "- cinq jaunes d'œuf bien frais",
        ],
        wrappedSentences: [
            "Ma grand-mère préparait cette crème brûlée chaque dimanche de février, quand le lait de la ferme était le plus riche.",
            "Fouettez les jaunes avec le sucre jusqu'à ce que le mélange blanchisse, puis versez la crème chaude en filet, sans cesser de remuer.",
        ],
        chrome: [
            "Accueil", "Entrées froides", "Plats mijotés", "Desserts d'été", "Livre d'or", "Plan du site",
            "© 2003 Odile Marchand", "Dernière mise à jour", "Écrivez-moi",
        ])

    static let brokenMarkup = HTMLFixture(
        file: "broken-markup.html",
        title: "Winter moth notes — Parish Naturalists' Wiki",
        runningText: [
            "Please do not touch the moths: the scales on their wings rub off easily.",
            "sixty-two males in a single hour.",
        ],
        lines: [
            "# Winter moth notes", "## How to take part", "## Counts by winter",
            "Winter | Nights | Males counted", "2022–23 | 14 | 311", "2024–25 | 15 | 402",
        ],
        wrappedSentences: [
            "Only the males fly; the females have stubby wings and climb the trunks of oaks and apple trees to lay their eggs.",
            "We counted them at the lamp on the church wall every Friday evening for three winters.",
            "Ink smudges in the damp air, and a pencil keeps writing when it is cold.",
            "The spring after the highest count, the oaks along the lane lost most of their early leaves to the caterpillars, and then grew a second flush by midsummer.",
        ],
        chrome: [
            "Main page", "Recent changes", "Random page", "Log in", "Navigation", "Birds of the parish",
            "Moths and butterflies", "Ponds and ditches", "How to edit", "Tools", "What links here", "Printable version",
            "Retrieved from", "last edited", "Privacy policy", "About the wiki",
        ])
}
