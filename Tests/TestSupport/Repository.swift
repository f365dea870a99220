import Foundation

/// The repository the tests run from, found from this file's path: the one place test targets
/// look up `certs/dev`, `Config`, `scripts` and the built binaries.
public enum Repository {
    /// The directory holding `Package.swift` (Tests/TestSupport/Repository.swift → the root).
    public static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // TestSupport
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()

    /// A path inside the repository.
    public static func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }

    /// A file of the development key material (`certs/dev`, made by scripts/gen-dev-certs.py).
    public static func devCert(_ name: String) -> String { path("certs/dev/\(name)") }
}
