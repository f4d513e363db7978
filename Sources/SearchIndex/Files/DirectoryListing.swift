import Foundation

/// One open folder of a `FileSource` walk: its entries' names as the bytes the file system
/// holds (`FileManager` drops a name that is not UTF-8) and their status, read relative to the
/// open folder. It owns the `DIR` stream and closes it when released.
final class DirectoryListing {
    /// Why a folder was not listed.
    enum Failure: Error, Sendable, CustomStringConvertible {
        /// The folder lies on a pseudo-filesystem: nothing in it is listed or read.
        case pseudoFileSystem(PseudoFileSystem)
        /// open(2), fdopendir(3) or readdir(3) failed, with errno's text.
        case unreadable(String)

        var description: String {
            switch self {
            case .pseudoFileSystem(let system):
                "on the pseudo-filesystem \(system) (kernel state, not documents): skipped by type, nothing in it listed or read"
            case .unreadable(let reason): "cannot list folder: \(reason)"
            }
        }
    }

    private let stream: OpaquePointer

    /// Opens the folder `path`, first refusing one on a pseudo-filesystem.
    init(_ path: FileItemPath) throws(Failure) {
        let descriptor = path.withCString { open($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOCTTY) }
        guard descriptor >= 0 else { throw .unreadable(Self.errorText()) }
        if let system = PseudoFileSystem.of(descriptor: descriptor) {
            close(descriptor)
            throw .pseudoFileSystem(system)
        }
        guard let stream = fdopendir(descriptor) else {
            let reason = Self.errorText()
            close(descriptor)
            throw .unreadable(reason)
        }
        self.stream = stream
    }

    deinit { closedir(stream) }

    /// Every entry's name but `.` and `..`, in the order the file system gives them.
    func names() throws(Failure) -> [[UInt8]] {
        var names: [[UInt8]] = []
        while true {
            errno = 0
            guard let entry = readdir(stream) else {
                // A failure part-way would make the files not yet listed look deleted.
                if errno != 0 { throw .unreadable(Self.errorText()) }
                return names
            }
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in Array(raw.prefix { $0 != 0 }) }
            if name == [UInt8(ascii: ".")] || name == [UInt8(ascii: "."), UInt8(ascii: ".")] { continue }
            names.append(name)
        }
    }

    /// The status of the entry `name`, not following a symbolic link; nil when it vanished.
    func status(of name: [UInt8]) -> FileStatus? {
        FileStatus.of(name, in: dirfd(stream))
    }

    private static func errorText() -> String { String(cString: strerror(errno)) }
}
