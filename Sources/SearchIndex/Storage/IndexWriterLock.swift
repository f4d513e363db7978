import Foundation

/// The right to refresh an index from its source, held by one writer at a time across threads
/// and processes: an exclusive `flock` on `<index file>.lock`.
///
/// SQLite's write lock covers one transaction; a refresh is many (it reads what the index holds,
/// compares it with the source, then writes in steps so an interruption loses little). Two
/// refreshes interleaved that way decide "unchanged" or "gone" from a state the other is
/// changing, and delete each other's items. So `FileSource` and `CorpusSource` take this lock
/// before they read the index and keep it until their last write. The kernel releases it when
/// the holder's process ends, however it ends, so a killed writer never leaves it taken. The
/// lock file stays beside the index (removing it would let two writers lock two files).
public final class IndexWriterLock: Sendable {
    private let descriptor: Int32
    /// The lock file's path.
    public let path: String

    private init(descriptor: Int32, path: String) {
        self.descriptor = descriptor
        self.path = path
    }

    deinit {
        _ = flock(descriptor, LOCK_UN)
        close(descriptor)
    }

    /// Takes the lock of the index at `indexURL`, waiting as long as another writer holds it
    /// (a cancelled task stops waiting and throws `CancellationError`). `waiting` is called
    /// once, with the holder's process id when known, if the lock is not free at once.
    public static func acquire(for indexURL: URL, waiting: (@Sendable (_ holder: Int32?) -> Void)? = nil) async throws -> IndexWriterLock {
        let path = indexURL.path + ".lock"
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw SearchIndexError.writerLockFailed(path: path, reason: String(cString: strerror(errno)))
        }
        var toldWaiting = false
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            let failure = errno
            guard failure == EWOULDBLOCK || failure == EINTR else {
                close(descriptor)
                throw SearchIndexError.writerLockFailed(path: path, reason: String(cString: strerror(failure)))
            }
            if !toldWaiting {
                toldWaiting = true
                waiting?(holder(readingFrom: descriptor))
            }
            do {
                try await Task.sleep(for: .milliseconds(50))
            } catch {
                close(descriptor)
                throw error
            }
        }
        // The holder's process id, for the next writer's "waiting for" note.
        let pid = Array("\(getpid())\n".utf8)
        _ = ftruncate(descriptor, 0)
        _ = pwrite(descriptor, pid, pid.count, 0)
        return IndexWriterLock(descriptor: descriptor, path: path)
    }

    /// The process id the current holder wrote into the lock file, if it reads as one.
    private static func holder(readingFrom descriptor: Int32) -> Int32? {
        var bytes = [UInt8](repeating: 0, count: 16)
        let count = pread(descriptor, &bytes, bytes.count, 0)
        guard count > 0 else { return nil }
        return Int32(String(decoding: bytes[..<count], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
