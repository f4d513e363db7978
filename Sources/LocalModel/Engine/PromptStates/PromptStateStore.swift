import Foundation
import Synchronization

/// One model's saved prompt states in a `PromptCache.folder`: one `<key digest>.kv` file per
/// `PromptStateKey` (`PromptStateFile`), and the model file's SHA-256 remembered in
/// `model-digests/`.
///
/// Files are written to a temporary name and renamed into place, so a process reading the
/// folder while another writes never sees half a file. The `.kv` files are kept within the
/// byte limit, least recently used first out: a load marks a file used by setting its
/// modification time (access times are often not kept), and each save removes the oldest
/// files until the folder fits.
final class PromptStateStore: Sendable {
    let folder: URL
    let byteLimit: Int
    private let modelURL: URL
    private let placement: String
    /// The model file's SHA-256, once read.
    private let modelDigest = Mutex<String?>(nil)

    /// What the folder holds for a key.
    enum Lookup {
        case missing
        /// llama.cpp's state for the key's tokens, checked.
        case found(Data)
        /// A file was there but could not be used; it was removed.
        case damaged(PromptStateNote)
    }

    init(folder: URL, byteLimit: Int, modelURL: URL, placement: String) {
        self.folder = folder
        self.byteLimit = byteLimit
        self.modelURL = modelURL
        self.placement = placement
    }

    /// The key of the state after `tokens` in a context of `contextLayout`.
    func key(for tokens: [Token], contextLayout: String) -> Result<PromptStateKey, PromptStateNote> {
        Result { () throws(PromptStateNote) in
            PromptStateKey(modelDigest: try digest(), placement: placement, contextLayout: contextLayout,
                           llamaBuild: LlamaRuntime.buildIdentity, tokens: tokens)
        }
    }

    /// The checked state saved for `key`; a file that fails the checks is removed.
    func load(_ key: PromptStateKey) -> Lookup {
        let url = folder.appendingPathComponent(key.fileName)
        guard FileManager.default.fileExists(atPath: url.path) else { return .missing }
        do {
            let data = try Data(contentsOf: url)
            let file = try PromptStateFile(reading: data, for: key)
            try? FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: url.path)
            return .found(file.state)
        } catch let damage as PromptStateFile.Damage {
            return .damaged(discard(key, reason: damage.reason))
        } catch {
            return .damaged(discard(key, reason: "it could not be read: \(error.localizedDescription)"))
        }
    }

    /// Removes the file of `key` (one llama.cpp refused, or that failed the checks) and says so.
    func discard(_ key: PromptStateKey, reason: String) -> PromptStateNote {
        let url = folder.appendingPathComponent(key.fileName)
        try? FileManager.default.removeItem(at: url)
        return .damagedFile(path: url.path, reason: reason)
    }

    /// Whether a state is saved for `key` (unchecked: `load` checks it).
    func contains(_ key: PromptStateKey) -> Bool {
        FileManager.default.fileExists(atPath: folder.appendingPathComponent(key.fileName).path)
    }

    /// Saves `state` for `key`, then removes the least recently used files past the limit; a
    /// note when it could not be written or is larger than the whole limit.
    func save(_ state: Data, for key: PromptStateKey) -> PromptStateNote? {
        let data = PromptStateFile(key: key, state: state).data
        guard data.count <= byteLimit else {
            return .notSaved(folder: folder.path, reason: "its \(data.count) bytes are more than the cache's limit of \(byteLimit)")
        }
        do {
            try write(data, to: folder.appendingPathComponent(key.fileName))
        } catch {
            return .notSaved(folder: folder.path, reason: error.localizedDescription)
        }
        evict()
        return nil
    }

    /// Writes `data` to a temporary file beside `url` and renames it into place (atomic on one
    /// file system), making the folder first.
    private func write(_ data: Data, to url: URL) throws {
        let folder = url.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let temporary = folder.appendingPathComponent(".\(url.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).\(UUID().uuidString).tmp")
        do {
            try data.write(to: temporary)
            guard rename(temporary.path, url.path) == 0 else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "renaming into \(url.path) failed: \(String(cString: strerror(errno)))"])
            }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
    }

    /// Removes the least recently used `.kv` files until those left fit `byteLimit`.
    private func evict() {
        let keys: [URLResourceKey] = [.fileSizeKey, .contentModificationDateKey]
        guard let urls = try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: keys) else { return }
        var files = urls.filter { $0.pathExtension == "kv" }.compactMap { url -> (url: URL, size: Int, used: Date)? in
            guard let values = try? url.resourceValues(forKeys: Set(keys)), let size = values.fileSize,
                  let used = values.contentModificationDate else { return nil }
            return (url, size, used)
        }
        files.sort { $0.used < $1.used }
        var total = files.reduce(0) { $0 + $1.size }
        for file in files where total > byteLimit {
            try? FileManager.default.removeItem(at: file.url)
            total -= file.size
        }
    }

    /// The model file's SHA-256: remembered in memory, and on disk under the file's path, size,
    /// modification time and inode, so a process reads the (gigabytes of) model only when the
    /// file is new or changed.
    private func digest() throws(PromptStateNote) -> String {
        if let known = modelDigest.withLock({ $0 }) { return known }
        let resolved = modelURL.resolvingSymlinksInPath()
        let attributes: [FileAttributeKey: Any]
        do {
            attributes = try FileManager.default.attributesOfItem(atPath: resolved.path)
        } catch {
            throw .unavailable(reason: "the model file \(modelURL.path) could not be read: \(error.localizedDescription)")
        }
        let identity = "\(resolved.path)\n\(attributes[.size] ?? "")\n"
            + "\((attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0)\n\(attributes[.systemFileNumber] ?? "")"
        let memo = folder.appendingPathComponent("model-digests").appendingPathComponent(SHA256Digest(Data(identity.utf8)).description)
        let digest: String
        if let remembered = (try? String(contentsOf: memo, encoding: .utf8)), remembered.count == 64 {
            digest = remembered
        } else {
            do {
                digest = try SHA256Digest(contentsOf: modelURL).description
            } catch {
                throw .unavailable(reason: "the model file \(modelURL.path) could not be read: \(error)")
            }
            // a memo that cannot be written only costs the next process the digest again
            try? write(Data(digest.utf8), to: memo)
        }
        modelDigest.withLock { $0 = digest }
        return digest
    }
}
