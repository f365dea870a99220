import Foundation
import TestSupport
import Testing
@testable import PushService

#if canImport(Glibc)
    import Glibc
#endif

/// One `serve` per SQLite file (`ServeLock`). flock locks belong to an open file, so a second
/// lock taken in this same process conflicts just as another process's would.
@Suite(.timeLimit(.minutes(5))) struct ServeLockTests {
    @Test func aSecondLockOnTheSameDatabaseIsRefusedAndNamesTheHolder() throws {
        let directory = try TemporaryDirectory()
        let database = directory.path("relay.sqlite")
        do {
            let first = try ServeLock.acquire(database: database)
            try withExtendedLifetime(first) {
                #expect(first.path == database + ".lock")
                #expect(throws: ServeLock.Failure.held(database: database, pid: getpid())) {
                    try ServeLock.acquire(database: database)
                }
                #expect(throws: ServeLock.Failure.held(database: database, pid: getpid())) {
                    try ServeLock.acquireIfPresent(database: database)
                }
                // Another database beside it is another lock.
                _ = try ServeLock.acquire(database: directory.path("other.sqlite"))
            }
        }
        // Released with its holder (the kernel does the same when a process ends).
        _ = try Self.onceReleased { try ServeLock.acquire(database: database) }
        let message = ServeLock.Failure.held(database: database, pid: 42).description
        #expect(message.contains(database) && message.contains("pid 42") && message.contains("PostgreSQL"))
    }

    @Test func withoutALockFileThereIsNoRelayToWaitFor() throws {
        let directory = try TemporaryDirectory()
        let database = directory.path("relay.sqlite")
        #expect(try ServeLock.acquireIfPresent(database: database) == nil)
        #expect(!FileManager.default.fileExists(atPath: database + ".lock"), "only serve makes the file")
        _ = try ServeLock.acquire(database: database)
        #expect(try Self.onceReleased { try ServeLock.acquireIfPresent(database: database) } != nil)
    }

    /// `lock()` once a released lock is free. Tests run in parallel in this process and some start
    /// child processes: a child forked while a lock's file was open shares its open file (and so
    /// the flock) until it execs, when `O_CLOEXEC` closes it; a re-lock in that moment is refused
    /// as held by this very pid. The relay itself forks nothing.
    static func onceReleased<Lock>(_ lock: () throws -> Lock) throws -> Lock {
        let deadline = ContinuousClock.now + .seconds(30)
        while true {
            do {
                return try lock()
            } catch ServeLock.Failure.held(_, let pid) where pid == getpid() && ContinuousClock.now < deadline {
                usleep(10_000)
            }
        }
    }

    @Test func aDirectoryThatIsNotThereIsAnErrorNamingTheFile() throws {
        #expect(throws: ServeLock.Failure.cannotOpen(path: "/nonexistent/relay.sqlite.lock", reason: "No such file or directory")) {
            try ServeLock.acquire(database: "/nonexistent/relay.sqlite")
        }
    }

    /// A directory where the lock file may not be made says so, not "No such file or directory"
    /// (what the read-only retry, meant for a lock file made by another user, found there). The
    /// tests run as root, whom file modes do not stop; sysfs refuses to create files even to
    /// root, where it is mounted (the probe checks).
    @Test(.enabled(if: Self.sysfsRefusesCreation(), "sysfs refuses a new file here"))
    func aDirectoryTheRelayMayNotWriteIsPermissionDenied() throws {
        #expect(throws: ServeLock.Failure.cannotOpen(path: "/sys/relay.sqlite.lock", reason: "Permission denied")) {
            try ServeLock.acquire(database: "/sys/relay.sqlite")
        }
    }

    static func sysfsRefusesCreation() -> Bool {
        let descriptor = open("/sys/relay.sqlite.lock", O_RDWR | O_CREAT, 0o644)
        if descriptor >= 0 {
            close(descriptor)
            return false
        }
        return errno == EACCES
    }
}
