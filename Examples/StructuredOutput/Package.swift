// swift-tools-version:6.0
import PackageDescription

// An app that links Lantern from this repository: the one `Lantern` product is all it names.
let package = Package(
    name: "StructuredOutput",
    dependencies: [.package(name: "Lantern", path: "../..")],
    targets: [
        .executableTarget(name: "StructuredOutput", dependencies: [.product(name: "Lantern", package: "Lantern")]),
    ]
)
