#if canImport(Glibc)
    import Glibc
#endif

/// Who besides its owner may read a file: what decides whether a key or a secret file is fit
/// to use (`CredentialFileAudit`).
public enum FileExposure: Sendable, Hashable {
    /// Its owner only (0600, 0400); or a file of root's that its group may read: root granting a
    /// group (root:push-relay 0640, as the package installs them; PostgreSQL allows the same for
    /// its key). Judged the same whoever looks, so `check-config` as root agrees with the service.
    case `private`
    /// Its group too (0640): a warning — anyone in the group can read the key.
    case groupReadable
    /// Every user of the machine (0644): an error.
    case everyoneReadable

    /// A file's mode bits and owners, as `stat` gives them.
    public struct Access: Sendable, Hashable {
        public var mode: UInt32
        public var owner: UInt32
        public var group: UInt32

        public init(mode: UInt32, owner: UInt32, group: UInt32) {
            self.mode = mode
            self.owner = owner
            self.group = group
        }
    }

    public static func of(_ access: Access) -> FileExposure {
        if access.mode & UInt32(S_IROTH) != 0 { return .everyoneReadable }
        guard access.mode & UInt32(S_IRGRP) != 0 else { return .private }
        return access.owner == 0 ? .private : .groupReadable
    }

    /// A directory's exposure: listing it (read) or reaching into it (search) counts as reading,
    /// with the same allowance for a directory of root's that its group may enter (the package's
    /// root:push-relay 0750 credentials directory).
    public static func ofDirectory(_ access: Access) -> FileExposure {
        if access.mode & UInt32(S_IROTH | S_IXOTH) != 0 { return .everyoneReadable }
        guard access.mode & UInt32(S_IRGRP | S_IXGRP) != 0 else { return .private }
        return access.owner == 0 ? .private : .groupReadable
    }

    /// The file at `path` (following links, as reading it does), or nil when it cannot be looked
    /// at (reading it will say why).
    public static func access(ofFileAt path: String) -> Access? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Access(mode: UInt32(info.st_mode) & 0o7777, owner: info.st_uid, group: info.st_gid)
    }
}
