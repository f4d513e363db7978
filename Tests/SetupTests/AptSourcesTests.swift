import Foundation
import Testing

/// `scripts/apt-sources.sh` against the apt layouts a machine can have: setup takes Debian
/// unstable from the mirror it finds, so a layout it misreads stops setup on that machine.
@Suite("apt source detection")
struct AptSourcesTests {
    /// A new machine of the project's kind, exactly: deb822 only, snapshot comments, no
    /// sources.list.
    static let newMachineSources = """
        Types: deb
        # http://snapshot.debian.org/archive/debian/20250520T000000Z
        URIs: http://deb.debian.org/debian
        Suites: bookworm bookworm-updates
        Components: main
        Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

        Types: deb
        # http://snapshot.debian.org/archive/debian-security/20250520T000000Z
        URIs: http://deb.debian.org/debian-security
        Suites: bookworm-security
        Components: main
        Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

        """
    static let vendorSources = """
        Types: deb
        URIs: https://deb.nodesource.com/node_20.x
        Suites: nodistro
        Components: main
        Signed-By: /usr/share/keyrings/nodesource.gpg

        """

    @Test func aNewMachineWithDeb822SourcesOnly() throws {
        let apt = try AptFolder(["sources.list.d/debian.sources": Self.newMachineSources,
                                 "sources.list.d/nodesource.sources": Self.vendorSources,
                                 "sources.list.d/google-cloud-sdk.list": "deb https://packages.cloud.google.com/apt cloud-sdk-bookworm main\n"])
        let found = try apt.debianMirror()
        #expect(found == ["deb822", "http://deb.debian.org/debian", "/usr/share/keyrings/debian-archive-keyring.gpg"])
    }

    @Test func oneLineSourcesOnly() throws {
        let apt = try AptFolder(["sources.list": """
            # deb cdrom:[Debian GNU/Linux 12]/ bookworm main
            deb http://security.debian.org/debian-security bookworm-security main
            deb-src http://ftp.fr.debian.org/debian bookworm main
            deb http://ftp.fr.debian.org/debian bookworm main contrib
            """])
        #expect(try apt.debianMirror() == ["one-line", "http://ftp.fr.debian.org/debian", ""])
    }

    @Test func bothLayoutsInAptsOrder() throws {
        let apt = try AptFolder(["sources.list": "deb http://first.example/debian bookworm main\n",
                                 "sources.list.d/debian.sources": Self.newMachineSources])
        #expect(try apt.debianMirror()[1] == "http://first.example/debian")
        let onlyCommentsInList = try AptFolder(["sources.list": "# moved to sources.list.d\n",
                                                "sources.list.d/debian.sources": Self.newMachineSources])
        #expect(try onlyCommentsInList.debianMirror()[0] == "deb822")
    }

    @Test func severalURIsAndHTTPSTakeTheFirst() throws {
        let apt = try AptFolder(["sources.list.d/mirrors.sources": """
            Types: deb deb-src
            # http://snapshot.debian.org/archive/debian/20250520T000000Z
            URIs: https://mirror.one.example/debian http://mirror.two.example/debian
            Suites: bookworm
            Components: main
            Signed-By: /etc/apt/keyrings/debian.gpg
            """])
        #expect(try apt.debianMirror() == ["deb822", "https://mirror.one.example/debian", "/etc/apt/keyrings/debian.gpg"])
    }

    @Test func oneLineOptionsGiveTheKeyring() throws {
        let apt = try AptFolder(["sources.list.d/debian.list":
            "deb [arch=amd64 signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] https://deb.example.org/debian bookworm-updates main\n"])
        #expect(try apt.debianMirror() == ["one-line", "https://deb.example.org/debian", "/usr/share/keyrings/debian-archive-keyring.gpg"])
    }

    @Test func disabledStanzasEmbeddedKeysAndLanternsOwnSource() throws {
        let apt = try AptFolder([
            "sources.list.d/lantern-unstable.sources": "Types: deb\nURIs: http://old.example/debian\nSuites: unstable\nComponents: main\n",
            "sources.list.d/a.sources": """
                Types: deb
                URIs: http://disabled.example/debian
                Suites: bookworm
                Components: main
                Enabled: no

                Types: deb
                URIs: http://embedded.example/debian
                Suites: bookworm
                Components: main
                Signed-By:
                 -----BEGIN PGP PUBLIC KEY BLOCK-----
                 .
                 mQINBGPLmQ4BEADSr6MTdyVZ9Zoyj3Lq
                 -----END PGP PUBLIC KEY BLOCK-----
                """,
        ])
        #expect(try apt.debianMirror() == ["deb822", "http://embedded.example/debian", ""])
    }

    @Test func aMachineAlreadyOnUnstablesBaseFilesStillFindsBookworm() throws {
        // setup's libc6 from unstable brings unstable's base-files, whose os-release says forky
        let apt = try AptFolder(["sources.list.d/debian.sources": Self.newMachineSources],
                                osRelease: "PRETTY_NAME=\"Debian GNU/Linux forky/sid\"\nVERSION_CODENAME=forky\nID=debian\n")
        #expect(try apt.debianMirror()[1] == "http://deb.debian.org/debian")
    }

    @Test func noDebianSourceIsAnErrorNamingTheFilesRead() throws {
        let empty = try AptFolder([:])
        let none = try empty.run(["debian-mirror", "--root", empty.root.path])
        #expect(none.status == 1)
        #expect(none.stderr.contains("no apt source files") && none.stderr.contains(empty.root.path))

        let vendorsOnly = try AptFolder(["sources.list.d/nodesource.sources": Self.vendorSources,
                                         "sources.list.d/security.list": "deb http://security.debian.org/debian-security bookworm-security main\n"])
        let result = try vendorsOnly.run(["debian-mirror", "--root", vendorsOnly.root.path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("nodesource.sources") && result.stderr.contains("security.list"))
        #expect(result.stdout.isEmpty)
    }

    @Test func theUnstableSourceIsWrittenInTheMachinesOwnFormAndReadsBack() throws {
        let apt = try AptFolder([:])
        let deb822 = try apt.run(["unstable-source", "deb822", "http://deb.debian.org/debian", "/usr/share/keyrings/debian-archive-keyring.gpg"])
        #expect(deb822.status == 0)
        #expect(deb822.stdout.contains("Suites: unstable\n") && deb822.stdout.contains("Check-Valid-Until: no"))
        let oneLine = try apt.run(["unstable-source", "one-line", "http://deb.debian.org/debian", "/usr/share/keyrings/debian-archive-keyring.gpg"])
        #expect(oneLine.stdout == "deb [check-valid-until=no signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian unstable main\n")

        // what setup writes is itself a Debian source apt and this script read the same way
        let written = try AptFolder(["sources.list.d/unstable.sources": deb822.stdout, "sources.list.d/unstable.list": oneLine.stdout])
        #expect(try written.debianMirror() == ["one-line", "http://deb.debian.org/debian", "/usr/share/keyrings/debian-archive-keyring.gpg"])
        let writtenDeb822 = try AptFolder(["sources.list.d/unstable.sources": deb822.stdout])
        #expect(try writtenDeb822.debianMirror() == ["deb822", "http://deb.debian.org/debian", "/usr/share/keyrings/debian-archive-keyring.gpg"])
    }
}
