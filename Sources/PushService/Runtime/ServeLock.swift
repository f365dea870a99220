import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// One `push-relay serve` per SQLite file, held from before the store opens until the process
/// ends. Two relays on one file are not a fleet: each keeps its own recipient cache (a token
/// registered through one is not seen by the other's webhook), and a starting relay puts every
/// delivery it finds in flight back to pending, so the pushes the other one is sending go out
/// twice. A fleet shares a PostgreSQL store instead.
///
/// An advisory `flock` on `<database>.lock`, which names the holder's pid. The kernel drops it
/// when the process ends, by `kill -9` too, so a stale file never blocks a start. `flock` and
/// SQLite's own (`fcntl`) locks do not interact on Linux, and the file is never unlinked: a new
/// one made while the old is still held would let a second relay in.
public final class ServeLock: Sendable {
    public enum Failure: Error, Equatable, CustomStringConvertible {
        /// Another process holds it; its pid, if the file names one.
        case held(database: String, pid: Int32?)
        case cannotOpen(path: String, reason: String)

        public var isHeld: Bool {
            if case .held = self { true } else { false }
        }

        public var description: String {
            switch self {
            case .held(let database, let pid):
                "\(database) is in use by another push-relay (\(pid.map { "pid \($0)" } ?? "pid unknown")): "
                    + "one relay per SQLite file; a fleet of relays shares a PostgreSQL store"
            case .cannotOpen(let path, let reason):
                "cannot open the lock file \(path): \(reason)"
            }
        }
    }

    public let path: String
    private let descriptor: Int32

    private init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// Takes the lock of the SQLite database at `database` (`serve`), or throws at once if it is held.
    public static func acquire(database: String) throws(Failure) -> ServeLock {
        // With `create` a missing file is made, so nil does not come.
        guard let lock = try lock(database: database, create: true) else {
            throw .cannotOpen(path: database + ".lock", reason: "not created")
        }
        return lock
    }

    /// For a command that must not run while a relay serves the file (`migrate-store`): the
    /// lock, or nil if there is no lock file (a relay serving the file would have made it).
    public static func acquireIfPresent(database: String) throws(Failure) -> ServeLock? {
        try lock(database: database, create: false)
    }

    private static func lock(database: String, create: Bool) throws(Failure) -> ServeLock? {
        let path = database + ".lock"
        // Read and write to leave the pid; read-only is enough for the lock itself (a file made
        // by another user, root running the relay by hand once, say).
        var descriptor = open(path, O_RDWR | O_CLOEXEC | (create ? O_CREAT : 0), 0o644)
        var failure = descriptor < 0 ? errno : 0
        if descriptor < 0, failure == EACCES {
            descriptor = open(path, O_RDONLY | O_CLOEXEC)
            // No file there to read: the refusal to make one (a directory the relay may not
            // write) is the reason, not the ENOENT of this second try.
            if descriptor < 0, errno != ENOENT { failure = errno }
        }
        guard descriptor >= 0 else {
            if failure == ENOENT, !create { return nil }
            throw .cannotOpen(path: path, reason: String(cString: strerror(failure)))
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let reason = errno
            let holder = pid(in: descriptor)
            close(descriptor)
            if reason == EWOULDBLOCK { throw .held(database: database, pid: holder) }
            throw .cannotOpen(path: path, reason: String(cString: strerror(reason)))
        }
        // The pid is for the message a second relay prints; the lock itself is the flock.
        let pid = Array("\(getpid())\n".utf8)
        if ftruncate(descriptor, 0) == 0 {
            _ = pid.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        }
        return ServeLock(path: path, descriptor: descriptor)
    }

    private static func pid(in descriptor: Int32) -> Int32? {
        var bytes = [UInt8](repeating: 0, count: 32)
        let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        return Int32(String(decoding: bytes[..<count], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
