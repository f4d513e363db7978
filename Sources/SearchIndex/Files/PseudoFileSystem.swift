import Foundation

/// A kernel pseudo-filesystem (/proc, /sys and their kind): its files are the kernel's state,
/// not documents, and reading them can block for ever (/proc/kmsg waits for the next kernel
/// message), never end, or cost the kernel work. `FileSource` recognizes one by the type
/// `fstatfs(2)` reports for an open folder or file and skips it before listing or reading.
///
/// Swift's Glibc module does not import `<sys/vfs.h>`, so `fstatfs` is looked up once by name
/// in the C library. `f_type` is the first member of `struct statfs` on every Linux ABI and is
/// a C `long` (Swift's `Int`). Where the lookup fails nothing is taken for a pseudo-filesystem,
/// and the read deadline still bounds what would block.
struct PseudoFileSystem: Sendable, Hashable, CustomStringConvertible {
    /// The file system's name as `/proc/filesystems` spells it.
    let name: String

    var description: String { name }

    /// The file system `descriptor` lies on, when it is a pseudo-filesystem.
    static func of(descriptor: Int32) -> PseudoFileSystem? {
        guard let fstatfs = Self.fstatfs else { return nil }
        // struct statfs is 120 bytes on 64-bit Linux, 64 or 84 on 32-bit: 256 holds every one.
        var buffer = [UInt8](repeating: 0, count: 256)
        let result = buffer.withUnsafeMutableBytes { raw -> Int32 in
            guard let base = raw.baseAddress else { return -1 }
            return fstatfs(descriptor, base)
        }
        guard result == 0 else { return nil }
        let type = buffer.withUnsafeBytes { $0.load(as: Int.self) }
        // f_type is unsigned in the kernel's eyes; on 32-bit systems a magic above 0x7fffffff
        // comes back negative.
        return Self.names[UInt32(truncatingIfNeeded: type)].map(PseudoFileSystem.init(name:))
    }

    /// Magic numbers from `<linux/magic.h>` of the file systems whose files are not documents.
    /// tmpfs (and devtmpfs, which shares its magic) is not here: it holds real files, and the
    /// devices in /dev are skipped by their type.
    static let names: [UInt32: String] = [
        0x9FA0: "proc",
        0x6265_6572: "sysfs",
        0x6462_6720: "debugfs",
        0x7472_6163: "tracefs",
        0x7363_6673: "securityfs",
        0x0027_E0EB: "cgroup",
        0x6367_7270: "cgroup2",
        0x1CD1: "devpts",
        0xCAFE_4A11: "bpf",
        0x6165_676C: "pstore",
        0x6265_6570: "configfs",
        0xDE5E_81E4: "efivarfs",
        0x6573_5543: "fusectl",
        0xF97C_FF8C: "selinuxfs",
        0x4341_5D53: "smackfs",
        0x4249_4E4D: "binfmt_misc",
        0x1980_0202: "mqueue",
        0x6E73_6673: "nsfs",
        0x6759_6969: "rpc_pipefs",
        0x6C6F_6F70: "binder",
    ]

    private typealias FstatfsFunction = @convention(c) (Int32, UnsafeMutableRawPointer) -> Int32

    private static let fstatfs: FstatfsFunction? = {
        guard let library = dlopen(nil, RTLD_NOW), let symbol = dlsym(library, "fstatfs") else { return nil }
        return unsafeBitCast(symbol, to: FstatfsFunction.self)
    }()
}
