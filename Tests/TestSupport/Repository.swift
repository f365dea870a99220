import Foundation

#if canImport(Glibc)
    import Glibc
#endif

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

    /// A copy of a development key readable by its owner only: the relay refuses a key file every
    /// user can read, and a checkout's files are 0644. The copies live in one directory per user
    /// (0700), each written whole and renamed into place, so concurrent test processes share them.
    /// When no copy can be made, the checkout's own file (which the relay will refuse, by name).
    public static func privateDevCert(_ name: String) -> String {
        let directory = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("push-relay-dev-keys-\(geteuid())")
        let target = directory.appendingPathComponent(name).path
        let staging = directory.appendingPathComponent(".\(name).\(UUID().uuidString)").path
        do {
            try FileManager.default.createDirectory(
                at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            try FileManager.default.copyItem(atPath: devCert(name), toPath: staging)
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: staging)
            guard rename(staging, target) == 0 else { throw CocoaError(.fileWriteUnknown) }
            return target
        } catch {
            try? FileManager.default.removeItem(atPath: staging)
            return devCert(name)
        }
    }
}
