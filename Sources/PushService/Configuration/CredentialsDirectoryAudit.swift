import ConfigSupport
import Foundation

/// `check-config`'s look at the host directory the unit's `LoadCredential=` lines copy from
/// (`ConfigurationEnvironment.hostCredentialsDirectory`). The service reads systemd's private
/// copies, so nothing here stops it; but the files are the secrets themselves, on the host. The
/// directory open to every user, or a file in it that every user (or, unless root owns it, its
/// group) can read, is a warning, by the rules `FileExposure` applies to `{file:}` secrets.
public struct CredentialsDirectoryAudit: Sendable {
    /// One line per finding, the directory first, then its files by name.
    public let warnings: [String]

    /// - Parameters:
    ///   - access: a path's mode and owners, or nil when it cannot be looked at.
    ///   - files: the names of the files in the directory (nil when it cannot be listed).
    public init(
        directory: String, access: (String) -> FileExposure.Access? = FileExposure.access(ofFileAt:),
        files: (String) -> [String]? = CredentialsDirectoryAudit.files(in:)
    ) {
        guard let found = access(directory) else {
            warnings = []
            return
        }
        var warnings: [String] = []
        let mode = "mode 0" + String(found.mode, radix: 8)
        switch FileExposure.ofDirectory(found) {
        case .everyoneReadable:
            warnings.append("the credentials directory \(directory) is open to every user (\(mode)): chmod 700 it")
        case .groupReadable:
            warnings.append("the credentials directory \(directory) is open to its group (\(mode)): chmod 700 it")
        case .private: break
        }
        for name in (files(directory) ?? []).sorted() {
            let path = (directory as NSString).appendingPathComponent(name)
            guard let file = access(path) else { continue }
            let fileMode = "mode 0" + String(file.mode, radix: 8)
            switch FileExposure.of(file) {
            case .everyoneReadable:
                warnings.append(
                    "credential \(name): \(path) is readable by every user (\(fileMode)): chmod 600 it (the service reads "
                        + "systemd's private copy, but this file is the secret)")
            case .groupReadable:
                warnings.append("credential \(name): \(path) is readable by its group (\(fileMode)); chmod 600 keeps it to its owner")
            case .private: break
            }
        }
        self.warnings = warnings
    }

    /// The files (not directories) in `directory`, links followed, as `LoadCredential=` reads them.
    public static func files(in directory: String) -> [String]? {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return nil }
        return names.filter { name in
            var isDirectory: ObjCBool = false
            let path = (directory as NSString).appendingPathComponent(name)
            return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory.boolValue
        }
    }
}
