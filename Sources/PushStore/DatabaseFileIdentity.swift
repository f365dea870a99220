import StoreContract

#if canImport(Glibc)
    import Glibc
#endif

/// Which file a path named when the store opened it (device and inode). A database file removed
/// or replaced while the relay runs leaves the relay writing to the old one, unlinked or moved,
/// whose contents go with the process; a restart would then start from whatever is at the path.
/// `/ready` compares, so an operator hears of it while the relay still runs: a moved file can be
/// moved back; a removed one is lost when the relay stops.
struct DatabaseFileIdentity: Sendable, Equatable {
    let device: UInt64
    let inode: UInt64

    /// The identity of the file at `path` now; nil when there is none.
    init?(path: String) {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
    }

    /// nil while `path` still names this file, else what changed.
    func change(at path: String) -> String? {
        guard let now = DatabaseFileIdentity(path: path) else {
            return "the database file \(path) was removed while the relay runs (it still writes to the removed file, lost when it stops)"
        }
        guard now == self else {
            return
                "the database file \(path) was replaced while the relay runs (it still writes to the old file; a restart opens the new one)"
        }
        return nil
    }
}
