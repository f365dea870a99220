import ConfigSupport

/// The verdict on credential files' modes (`FileExposure`): one every user of the machine can
/// read stops the start (`error`, exit 78); one its group can read is a warning. A file that
/// cannot be looked at is left to whatever reads it, which reports it.
public struct CredentialFileAudit: Sendable {
    public struct Finding: Sendable, Hashable, CustomStringConvertible {
        public var file: CredentialFile
        public var access: FileExposure.Access
        public var exposure: FileExposure

        public var description: String {
            let mode = "mode 0" + String(access.mode, radix: 8)
            return switch exposure {
            case .everyoneReadable: "\(file.path) is readable by every user (\(mode)): chmod 600 it"
            case .groupReadable:
                "\(file.key): \(file.path) is readable by its group (\(mode)); chmod 600 keeps it to its owner"
            case .private: "\(file.key): \(file.path) is private (\(mode))"
            }
        }
    }

    /// The files readable by more than they should be, in the order given.
    public let findings: [Finding]

    /// - Parameter access: a file's mode and owners, or nil when it cannot be looked at.
    public init(files: [CredentialFile], access: (String) -> FileExposure.Access? = FileExposure.access(ofFileAt:)) {
        findings = files.compactMap { file in
            guard let found = access(file.path) else { return nil }
            let exposure = FileExposure.of(found)
            return exposure == .private ? nil : Finding(file: file, access: found, exposure: exposure)
        }
    }

    /// The first file every user can read, as the error that stops the start.
    public var error: ConfigurationError? {
        findings.first { $0.exposure == .everyoneReadable }.map { .invalidValue(key: $0.file.key, reason: $0.description) }
    }

    /// One line per file its group can read.
    public var warnings: [String] { findings.filter { $0.exposure == .groupReadable }.map(\.description) }
}
