import Foundation
import GRDB
import TestSupport
import Testing
@testable import PushStore
@testable import StoreContract

@Suite(.timeLimit(.minutes(5))) struct WALCheckpointerTests {
    /// Commits reach the database file without any commit checkpointing: the writer's own
    /// checkpoint is only a backstop at 16,000 pages, far beyond what this writes.
    @Test func committedPagesReachTheDatabaseFileInTheBackground() async throws {
        let database = try TemporaryDatabase()
        let store = try database.open()
        let size = { (try? FileManager.default.attributesOfItem(atPath: database.path)[.size] as? Int) ?? 0 }
        let before = size()
        // About 2 MB of rows: ~500 pages, under SQLite's default checkpoint too.
        try await store.pool.write { db in
            try db.execute(sql: "CREATE TABLE filler (x BLOB)")
            for _ in 0..<500 { try db.execute(sql: "INSERT INTO filler VALUES (zeroblob(4000))") }
        }
        // A generous deadline: the checkpoint runs every 0.1 s, and slow machines vary 3x.
        #expect(await eventually(within: 30) { size() >= before + 2_000_000 })
        try await store.close()
    }

    /// The webhook's reads keep their snapshot between events (`SnapshotReaders`), which would
    /// keep a checkpoint from copying anything committed after it: each background checkpoint has
    /// them end it first.
    @Test func aSnapshotTheWebhookKeepsDoesNotHoldTheCheckpointBack() async throws {
        let database = try TemporaryDatabase()
        let store = try database.open()
        _ = try await store.registerToken(app: "A", user: "u", token: hexToken(1), isUnique: false)
        let size = { (try? FileManager.default.attributesOfItem(atPath: database.path)[.size] as? Int) ?? 0 }
        // A recipient read: its reader keeps the snapshot, from before the rows below.
        #expect(try store.recipientStatesAndTemplates(app: "A", users: ["u"], channel: "c").states["u"] != nil)
        let before = size()
        try await store.pool.write { db in
            try db.execute(sql: "CREATE TABLE filler (x BLOB)")
            for _ in 0..<500 { try db.execute(sql: "INSERT INTO filler VALUES (zeroblob(4000))") }
        }
        #expect(await eventually(within: 30) { size() >= before + 2_000_000 })
        try await store.close()
    }

    /// `close()` stops the loop and closes its connection: the file can be opened again at once.
    @Test func closeStopsIt() async throws {
        let database = try TemporaryDatabase()
        let store = try database.open()
        try await store.close()
        let again = try database.open()
        #expect(try await again.appliedMigrations().count == StoreKind.sqliteMigrations.count)
        try await again.close()
    }

    /// A closed store is the one file: with readers open (as a relay's are), closing copies the
    /// WAL into the database file and deletes it and the `-shm`. Closed before its readers, the
    /// writer was not the last connection, and the read-only ones that were cannot do it.
    @Test func aClosedStoreLeavesOnlyTheDatabaseFile() async throws {
        let database = try TemporaryDatabase()
        let store = try database.open()
        try await store.pool.write { db in
            try db.execute(sql: "CREATE TABLE filler (x BLOB)")
            try db.execute(sql: "INSERT INTO filler VALUES (zeroblob(4000))")
        }
        // Two readers at once, so the pool holds more than one connection of its own.
        async let first = store.pool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM filler") }
        async let second = store.pool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM filler") }
        #expect(try await [first, second] == [1, 1])
        #expect(FileManager.default.fileExists(atPath: database.path + "-wal"))
        try await store.close()
        #expect(!FileManager.default.fileExists(atPath: database.path + "-wal"))
        #expect(!FileManager.default.fileExists(atPath: database.path + "-shm"))
        // Everything written is in the file itself.
        let reopened = try DatabaseQueue(path: database.path)
        #expect(try await reopened.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM filler") } == 1)
        try reopened.close()
    }
}
