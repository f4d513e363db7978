import Foundation
import SearchIndex

// Opens the index at argv[1], begins a batch, and keeps writing items containing the word
// "probeword" until it is killed. Prints BATCH-OPEN once the batch holds written items, and
// BULK-OPEN once it holds 6,000 (past the bulk-load threshold, so the secondary indexes are dropped).
guard CommandLine.arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: lantern-index-crash-probe <index-file>\n".utf8))
    exit(2)
}
let index = try SearchableIndex(url: URL(fileURLWithPath: CommandLine.arguments[1]))
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
