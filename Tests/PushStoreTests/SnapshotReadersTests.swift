import Foundation
import GRDB
import Testing
@testable import PushStore
@testable import StoreContract

/// The webhook's readers keep their snapshot between reads, but never past a registry write or a
/// checkpoint. A database of its own and no `WALCheckpointer`, so the test says when checkpoints run.
@Suite(.timeLimit(.minutes(5))) struct SnapshotReadersTests {
    struct Fixture {
        let database: TemporaryDatabase
        let pool: DatabasePool
        let readers: SnapshotReaders

        init(holdsSnapshots: Bool = true, maximumCount: Int = 2) throws {
            database = try TemporaryDatabase()
            pool = try DatabasePool(path: database.path)
            try pool.write { db in
                try db.execute(sql: "CREATE TABLE t (x INTEGER)")
                try db.execute(sql: "INSERT INTO t VALUES (1)")
            }
            readers = SnapshotReaders(
                path: database.path, busyMode: .immediateError, maximumCount: maximumCount, holdsSnapshots: holdsSnapshots)
        }

        func count(version: RecipientCache.Version = .initial) throws -> Int? {
            try readers.read(version: version) { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") ?? -1 }
        }

        func insert() throws {
            try pool.write { db in try db.execute(sql: "INSERT INTO t VALUES (1)") }
        }

        /// A passive checkpoint, as `WALCheckpointer` runs it: whether it copied the whole WAL.
        func checkpointCopiesEverything() throws -> Bool {
            let (frames, copied) = try pool.writeWithoutTransaction { db in try db.checkpoint(.passive) }
            return frames == copied
        }

        func close() throws {
            readers.close()
            try pool.close()
        }
    }

    @Test func aSnapshotIsKeptFromOneReadToTheNext() throws {
        let fixture = try Fixture()
        #expect(try fixture.count() == 1)
        try fixture.insert()
        #expect(try fixture.count() == 1, "the same registry version: the snapshot is kept")
        #expect(try fixture.count(version: .init(app: 1, generation: 1)) == 2, "a registry write of the app read: a new snapshot")
        try fixture.close()
    }

    /// A snapshot has every write stamped up to the generation it began at: another app's later
    /// write leaves it good for this app, a later write of this app does not.
    @Test func anotherAppsWriteKeepsTheSnapshot() throws {
        let fixture = try Fixture()
        #expect(try fixture.count(version: .init(app: 0, generation: 3)) == 1)
        try fixture.insert()
        #expect(try fixture.count(version: .init(app: 2, generation: 4)) == 1, "app A last written at 2 ≤ 3: kept")
        #expect(try fixture.count(version: .init(app: 4, generation: 4)) == 2, "app A written at 4 > 3: a new snapshot")
        try fixture.close()
    }

    @Test func aCheckpointEndsTheSnapshotsItWouldWaitFor() throws {
        let fixture = try Fixture()
        #expect(try fixture.count() == 1)
        try fixture.insert()
        #expect(try fixture.checkpointCopiesEverything() == false, "the held snapshot keeps the new frames in the WAL")
        fixture.readers.releaseForCheckpoint()
        #expect(try fixture.checkpointCopiesEverything())
        // While the checkpoint runs, a read keeps no snapshot.
        #expect(try fixture.count() == 2)
        try fixture.insert()
        #expect(try fixture.checkpointCopiesEverything())
        fixture.readers.checkpointDone()
        #expect(try fixture.count() == 3)
        try fixture.close()
    }

    /// A reader lent when the checkpoint began ends its transaction as it is returned.
    @Test func aReaderInUseWhenACheckpointBeginsEndsItsSnapshotWhenReturned() throws {
        let fixture = try Fixture()
        let read = try fixture.readers.read(version: .initial) { db in
            fixture.readers.releaseForCheckpoint()
            return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")
        }
        #expect(read == 1)
        fixture.readers.checkpointDone()
        try fixture.insert()
        #expect(try fixture.count() == 2)
        try fixture.close()
    }

    /// A WAL near the writer's backstop checkpoint: no snapshot is kept until it is restarted, so
    /// the backstop finds none in its way.
    @Test func aLongWALSuspendsHoldingUntilItIsRestarted() throws {
        let fixture = try Fixture()
        fixture.readers.releaseForCheckpoint()
        fixture.readers.checkpointDone(walFrames: SnapshotReaders.suspendingFrames)
        #expect(try fixture.count() == 1)
        try fixture.insert()
        #expect(try fixture.count() == 2, "no snapshot kept")
        #expect(try fixture.checkpointCopiesEverything())
        fixture.readers.releaseForCheckpoint()
        fixture.readers.checkpointDone(walFrames: 10)
        #expect(try fixture.count() == 2)
        try fixture.insert()
        #expect(try fixture.count() == 2, "kept again")
        try fixture.close()
    }

    @Test func withoutHoldingEveryReadSeesTheLastCommit() throws {
        let fixture = try Fixture(holdsSnapshots: false)
        #expect(try fixture.count() == 1)
        try fixture.insert()
        #expect(try fixture.count() == 2)
        #expect(try fixture.checkpointCopiesEverything())
        try fixture.close()
    }

    @Test func aReadThatThrowsEndsItsSnapshot() throws {
        let fixture = try Fixture()
        #expect(try fixture.count() == 1)
        try fixture.insert()
        #expect(throws: DatabaseError.self) {
            try fixture.readers.read(version: .initial) { db in try db.execute(sql: "SELECT * FROM missing") }
        }
        #expect(try fixture.count() == 2)
        try fixture.close()
    }

    /// With every reader lent, `read` says so (nil) instead of waiting: the caller reads through
    /// GRDB's pool.
    @Test func everyReaderInUseGivesNil() throws {
        let fixture = try Fixture(maximumCount: 1)
        let inner = try fixture.readers.read(version: .initial) { _ in try fixture.count() }
        #expect(inner == .some(nil))
        #expect(try fixture.count() == 1)
        try fixture.close()
    }

    /// A reader that cannot be opened fails no read: the caller reads through the pool, which
    /// has its own connections (or reports the error itself).
    @Test func aReaderThatCannotBeOpenedLeavesTheReadToThePool() throws {
        let database = try TemporaryDatabase()
        let readers = SnapshotReaders(
            path: database.path + ".missing/none.sqlite", busyMode: .immediateError, maximumCount: 1, holdsSnapshots: true)
        #expect(try readers.read(version: .initial) { _ in 1 } == nil)
        #expect(try readers.read(version: .initial) { _ in 1 } == nil, "and it is tried again, not counted as open")
        readers.close()
    }

    /// Closed, the readers leave the database to its writer: closing the pool last removes the
    /// WAL, which a reader still open would keep.
    @Test func closedReadersLeaveOnlyTheDatabaseFile() throws {
        let fixture = try Fixture()
        #expect(try fixture.count() == 1)
        try fixture.insert()
        try fixture.close()
        #expect(!FileManager.default.fileExists(atPath: fixture.database.path + "-wal"))
        #expect(try fixture.count() == nil, "a closed set lends nothing")
    }
}

extension RecipientCache.Version {
    static let initial = RecipientCache.Version(app: 0, generation: 0)
}
