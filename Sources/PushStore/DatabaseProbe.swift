import Foundation
import GRDB

#if canImport(Glibc)
    import Glibc
#endif

/// Proves the database is writable: opens its own connection and takes the write lock
/// (`BEGIN IMMEDIATE; ROLLBACK`), which fails on a read-only file, a full or vanished
/// directory, or a writer stuck beyond the busy timeout. Nothing is written. Then it asks the file
/// system for room: taking the lock needs none, while every commit does, so on a full disk (or
/// quota) the lock test alone passed while each webhook was answered 503.
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
        do {
            var configuration = Configuration()
            configuration.busyMode = .timeout(2)
            configuration.label = "DatabaseProbe"
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            try await queue.writeWithoutTransaction { db in
                try db.execute(sql: "BEGIN IMMEDIATE")
                try db.execute(sql: "ROLLBACK")
            }
            try queue.close()
        } catch let error as DatabaseError {
            return error.message ?? error.description
        } catch {
            return String(describing: error)
        }
        if let free = freeBytes(), free < minimumFreeBytes {
            return "the database's file system is full: \(free) bytes free, at least \(minimumFreeBytes) needed"
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
