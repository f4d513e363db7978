import Foundation
import Synchronization
import SearchIndex

// A child process the SearchIndex tests run against an index file, in one of two modes.
//
// `lantern-index-crash-probe <index-file>`: begins a batch and keeps writing items containing the
// word "probeword" until it is killed. Prints BATCH-OPEN once the batch holds written items, and
// BULK-OPEN once it holds 6,000 (past the bulk-load threshold, so the secondary indexes are dropped).
//
// `lantern-index-crash-probe vectors <index-file>`: opens the index with `ProbeEmbedder`, writes
// the words of 2,000 items, then runs the embedding pass, which stalls in its third chunk, until it is killed. Prints
// EMBEDDING once a chunk of vectors committed.
//
// `lantern-index-crash-probe writer <index-file>`: a second writer beside the test's own or another
// probe's. Reads one command a line from stdin, answers "ok" (or "error: …") on stdout:
//   write SEED FROM TO     upserts items w<FROM>..<TO> (words from `ProbeNotes`), one call
//   batch SEED FROM TO     the same inside a batch
//   delete FROM TO         deletes items w<FROM>..<TO>
//   run SEED ROUNDS        ROUNDS random upserts, deletes and small batches over w0..<400, paced
//   checkpoint             `SearchableIndex.checkpoint()`, as `ask` does when a write command ends
//   vocabulary             prints the words the items are made of, instead of "ok"
//   quit                   exits at once, with _exit as `ask` does (no SQLite close)
let arguments = CommandLine.arguments
if arguments.count == 3, arguments[1] == "writer" {
    await runWriter(path: arguments[2])
} else if arguments.count == 3, arguments[1] == "vectors" {
    try await runVectorProbe(path: arguments[2])
} else if arguments.count == 2 {
    try await runCrashProbe(path: arguments[1])
} else {
    FileHandle.standardError.write(Data("usage: lantern-index-crash-probe [writer] <index-file>\n".utf8))
    exit(2)
}

func runCrashProbe(path: String) async throws {
    let index = try SearchableIndex(url: URL(fileURLWithPath: path))
    try await index.beginBatch()
    var counter = 0
    while true {
        var items: [SearchableItem] = []
        for _ in 0..<50 {
            counter += 1
            var set = SearchableItemAttributeSet(contentType: "public.text")
            set.title = "probe \(counter)"
            set.textContent = "probeword written inside an unfinished batch number \(counter)"
            items.append(SearchableItem(uniqueIdentifier: "probe-\(counter)", attributeSet: set))
        }
        try await index.indexSearchableItems(items)
        if counter == 50 {
            FileHandle.standardOutput.write(Data("BATCH-OPEN\n".utf8))
        }
        if counter == 6_000 {
            FileHandle.standardOutput.write(Data("BULK-OPEN\n".utf8))
        }
    }
}

/// A deterministic embedder for the vector probe (the test opens the file with the same
/// identity) that stalls from its third call on: two chunks are committed, and the test's kill
/// lands while the pass embeds the third, however loaded the machine (a pause per call let a
/// busy test runner sleep past the whole pass).
final class ProbeEmbedder: TextEmbedder {
    let identity = "probe-embedder"
    let dimension = 3
    private let calls = Atomic(0)
    func embed(_ texts: [String]) async throws -> [[Float]] {
        if calls.add(1, ordering: .relaxed).newValue > 2 { try await Task.sleep(for: .seconds(3_600)) }
        return texts.map { text in [Float(text.utf8.count % 7) + 1, Float(text.utf8.count % 5), 1] }
    }
}

func runVectorProbe(path: String) async throws {
    let index = try SearchableIndex(url: URL(fileURLWithPath: path), embedder: ProbeEmbedder())
    // each text its own, so none reuses another's vector
    let items = (1...2_000).map { counter in
        var set = SearchableItemAttributeSet(contentType: "public.text")
        set.title = "probe \(counter)"
        set.textContent = "probeword with a vector, number \(counter)"
        return SearchableItem(uniqueIdentifier: "probe-\(counter)", attributeSet: set)
    }
    try await index.indexSearchableItems(items)
    let said = Atomic(false)
    try await index.embedPendingItems { progress in
        guard progress.embeddedItems > 0, !said.exchange(true, ordering: .relaxed) else { return }
        FileHandle.standardOutput.write(Data("EMBEDDING\n".utf8))
    }
    FileHandle.standardOutput.write(Data("DONE\n".utf8))
    // the test kills the probe before this
    try await Task.sleep(for: .seconds(3_600))
}

func runWriter(path: String) async {
    func answer(_ text: String) { FileHandle.standardOutput.write(Data((text + "\n").utf8)) }
    let index: SearchableIndex
    do { index = try SearchableIndex(url: URL(fileURLWithPath: path)) } catch {
        answer("error: \(error)")
        exit(1)
    }
    while let line = readLine() {
        let words = line.split(separator: " ").map(String.init)
        let numbers = words.dropFirst().compactMap { Int($0) }
        do {
            switch (words.first, numbers.count) {
            case ("write", 3):
                try await index.indexSearchableItems(ProbeNotes.items(numbers[1]..<numbers[2], seed: UInt64(numbers[0])))
            case ("batch", 3):
                try await index.beginBatch()
                try await index.indexSearchableItems(ProbeNotes.items(numbers[1]..<numbers[2], seed: UInt64(numbers[0])))
                try await index.endBatch(clientState: Data("probe".utf8))
            case ("delete", 2):
                try await index.deleteSearchableItems(withIdentifiers: (numbers[0]..<numbers[1]).map(ProbeNotes.identifier))
            case ("run", 2):
                var random = ProbeNotes.Random(seed: UInt64(numbers[0]))
                for _ in 0..<numbers[1] {
                    // A pause between rounds, so the other writer (waiting in SQLite's busy
                    // handler) gets the lock in between instead of after the whole run.
                    try await Task.sleep(for: .microseconds(500 + random.next(2_500)))
                    let start = random.next(400), count = 1 + random.next(30)
                    switch random.next(10) {
                    case 0..<5: try await index.indexSearchableItems(ProbeNotes.items(start..<(start + count), seed: random.state))
                    case 5..<8: try await index.deleteSearchableItems(withIdentifiers: (start..<(start + count)).map(ProbeNotes.identifier))
                    default:
                        try await index.beginBatch()
                        try await index.indexSearchableItems(ProbeNotes.items(start..<(start + count), seed: random.state))
                        try await index.deleteSearchableItems(withIdentifiers: [ProbeNotes.identifier(random.next(400))])
                        try await index.endBatch(clientState: Data("probe".utf8))
                    }
                }
            case ("checkpoint", 0):
                try await index.checkpoint()
            case ("vocabulary", 0):
                answer(ProbeNotes.vocabulary.joined(separator: " "))
                continue
            case ("quit", 0):
                _exit(0)
            default:
                answer("error: unknown command \(line)")
                continue
            }
            answer("ok")
        } catch {
            answer("error: \(error)")
        }
    }
}

/// The probe writer's items: notes whose words come from a small skewed vocabulary (so common
/// words are held by most items, with counts and lengths that vary), seeded, so a test can know
/// what each command wrote.
enum ProbeNotes {
    static let vocabulary = ["lake", "heron", "reed", "marsh", "tide", "egret", "mud", "creek", "willow", "otter",
                             "lichen", "fern", "moss", "stone", "larch", "kestrel", "vole", "plover", "sedge"]

    struct Random {
        var state: UInt64
        init(seed: UInt64) { state = seed &* 0x9E37_79B9_7F4A_7C15 &+ 1 }
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
    }

    static func identifier(_ number: Int) -> String { "w\(number)" }

    static func items(_ numbers: Range<Int>, seed: UInt64) -> [SearchableItem] {
        var random = Random(seed: seed)
        func word() -> String { vocabulary[min(random.next(vocabulary.count), random.next(vocabulary.count))] }
        return numbers.map { number in
            var set = SearchableItemAttributeSet(contentType: "public.text")
            set.title = (0..<(1 + random.next(3))).map { _ in word() }.joined(separator: " ")
            set.textContent = (0..<(3 + random.next(30))).map { _ in word() }.joined(separator: " ")
            return SearchableItem(uniqueIdentifier: identifier(number), domainIdentifier: "probe", attributeSet: set)
        }
    }
}
