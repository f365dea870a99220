import Foundation
import GRDBSQLite
import StoreContract

#if canImport(Glibc)
    import Glibc
#endif

/// Proves the database is writable: opens its own connection and takes the write lock
/// (`BEGIN IMMEDIATE; ROLLBACK`), which fails on a read-only file, a removed file, a full or
/// vanished directory, or a writer stuck beyond the busy timeout. Nothing is written, and no file
/// is created. Then it asks the file system for room: taking the lock needs none, while every
/// commit does, so on a full disk (or quota) the lock test alone passed while each webhook was
/// answered 503.
public struct DatabaseProbe: Sendable {
    /// Below this, the database's file system counts as full: a group commit's WAL frames alone
    /// can take a few MB.
    public static let defaultMinimumFreeBytes: UInt64 = 4 << 20

    public let path: String
    public let minimumFreeBytes: UInt64

    public init(path: String, minimumFreeBytes: UInt64 = DatabaseProbe.defaultMinimumFreeBytes) {
        self.path = path
        self.minimumFreeBytes = minimumFreeBytes
    }

    /// nil when writable, else what went wrong.
    public func check() async -> String? {
        // The lock test blocks for up to the busy timeout, so off Swift's cooperative pool.
        let path = path
        let problem = await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: Self.takeWriteLock(path: path)) }
        }
        if let problem { return problem }
        if let free = freeBytes(), free < minimumFreeBytes {
            return "the database's file system is full: \(free) bytes free, at least \(minimumFreeBytes) needed"
        }
        return nil
    }

    /// `BEGIN IMMEDIATE; ROLLBACK` on a connection of its own, opened read-write WITHOUT
    /// `SQLITE_OPEN_CREATE` (which GRDB always passes): a file removed just before the check is
    /// reported, not replaced by a new, empty database that a restart would then open.
    private static func takeWriteLock(path: String) -> String? {
        var connection: OpaquePointer?
        defer { sqlite3_close_v2(connection) }
        guard sqlite3_open_v2(path, &connection, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK,
            let connection
        else {
            guard FileManager.default.fileExists(atPath: path) else { return "the database file \(path) is not there" }
            return connection.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open \(path)"
        }
        sqlite3_busy_timeout(connection, 2_000)
        for statement in ["BEGIN IMMEDIATE", "ROLLBACK"] where sqlite3_exec(connection, statement, nil, nil, nil) != SQLITE_OK {
            return String(cString: sqlite3_errmsg(connection))
        }
        return nil
    }

    /// Bytes an unprivileged writer may still use where the database is (nil if unknown: the
    /// lock test above is then the whole check).
    private func freeBytes() -> UInt64? {
        let directory = (path as NSString).deletingLastPathComponent
        var status = statvfs()
        guard statvfs(directory.isEmpty ? "." : directory, &status) == 0 else { return nil }
        return UInt64(status.f_bavail) * UInt64(status.f_frsize)
    }
}
