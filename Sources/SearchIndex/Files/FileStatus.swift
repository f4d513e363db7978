import Foundation

/// What the walk needs to know of one directory entry: its type, size and dates, read by name
/// bytes relative to an open folder (so a name need not be UTF-8) or by a whole path.
///
/// It comes from `statx(2)`, which alone gives the birth time that
/// `FileManager.attributesOfItem` reports as `.creationDate`. Swift's Glibc module does not
/// import `statx`, so it is looked up once by name in the C library, and `struct statx` is read
/// at the offsets the kernel fixes for every architecture (`<linux/stat.h>`). Without it the
/// status comes from `fstatat(2)`, with no creation date.
struct FileStatus: Sendable, Equatable {
    enum Kind: Sendable, Equatable {
        case regular, directory, symbolicLink
        /// A FIFO, socket or device, named.
        case special(String)
    }

    var kind: Kind
    var size: Int
    var modified: Date
    var created: Date?

    /// The status of `name` in the open folder `directory`, not following a symbolic link.
    static func of(_ name: [UInt8], in directory: Int32) -> FileStatus? {
        FileItemPath(bytes: name).withCString { status(directory: directory, path: $0, followLinks: false) }
    }

    /// The status of the file `path` names, following symbolic links.
    static func of(_ path: FileItemPath) -> FileStatus? {
        path.withCString { status(directory: AT_FDCWD, path: $0, followLinks: true) }
    }

    /// The status of an open file.
    static func of(descriptor: Int32) -> FileStatus? {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return nil }
        return FileStatus(status)
    }

    private static func status(directory: Int32, path: UnsafePointer<CChar>, followLinks: Bool) -> FileStatus? {
        let flags = followLinks ? 0 : AT_SYMLINK_NOFOLLOW
        if let statx = Self.statx {
            var buffer = [UInt8](repeating: 0, count: 256)
            let result = buffer.withUnsafeMutableBytes { raw -> Int32 in
                guard let base = raw.baseAddress else { return -1 }
                return statx(directory, path, flags, Self.basicStatsAndBirth, base)
            }
            if result == 0 { return buffer.withUnsafeBytes { FileStatus(statx: $0) } }
            // ENOSYS (a kernel or sandbox without statx) falls back to fstatat; any other
            // failure is the file's.
            guard errno == ENOSYS else { return nil }
        }
        var status = stat()
        guard fstatat(directory, path, &status, flags) == 0 else { return nil }
        return FileStatus(status)
    }

    private init(_ status: stat) {
        kind = Self.kind(mode: UInt32(status.st_mode))
        size = Int(status.st_size)
        modified = Date(timeIntervalSince1970: Double(status.st_mtim.tv_sec) + Double(status.st_mtim.tv_nsec) / 1e9)
        created = nil
    }

    /// Reads `struct statx`: stx_mask at 0, stx_mode (16 bits) at 28, stx_size at 40, then
    /// 16-byte timestamps (64-bit seconds, 32-bit nanoseconds) with stx_btime at 80 and
    /// stx_mtime at 112.
    private init(statx raw: UnsafeRawBufferPointer) {
        let mask = raw.loadUnaligned(fromByteOffset: 0, as: UInt32.self)
        func date(at offset: Int) -> Date {
            let seconds = raw.loadUnaligned(fromByteOffset: offset, as: Int64.self)
            let nanoseconds = raw.loadUnaligned(fromByteOffset: offset + 8, as: UInt32.self)
            return Date(timeIntervalSince1970: Double(seconds) + Double(nanoseconds) / 1e9)
        }
        kind = Self.kind(mode: UInt32(raw.loadUnaligned(fromByteOffset: 28, as: UInt16.self)))
        size = Int(truncatingIfNeeded: raw.loadUnaligned(fromByteOffset: 40, as: UInt64.self))
        modified = date(at: 112)
        created = mask & Self.birthTime != 0 ? date(at: 80) : nil
    }

    private static func kind(mode: UInt32) -> Kind {
        switch mode & UInt32(S_IFMT) {
        case UInt32(S_IFREG): .regular
        case UInt32(S_IFDIR): .directory
        case UInt32(S_IFLNK): .symbolicLink
        case UInt32(S_IFIFO): .special("a FIFO")
        case UInt32(S_IFSOCK): .special("a socket")
        case UInt32(S_IFCHR): .special("a character device")
        case UInt32(S_IFBLK): .special("a block device")
        default: .special("of an unknown type")
        }
    }

    /// STATX_BASIC_STATS | STATX_BTIME.
    private static let basicStatsAndBirth: UInt32 = 0x7FF | 0x800
    private static let birthTime: UInt32 = 0x800

    private typealias StatxFunction = @convention(c) (Int32, UnsafePointer<CChar>, Int32, UInt32, UnsafeMutableRawPointer) -> Int32

    private static let statx: StatxFunction? = {
        guard let library = dlopen(nil, RTLD_NOW), let symbol = dlsym(library, "statx") else { return nil }
        return unsafeBitCast(symbol, to: StatxFunction.self)
    }()
}
