import Foundation
import Testing
@testable import PushStore
@testable import StoreContract

/// `GET /ready`'s check of a SQLite database: the write lock, then room on its file system.
@Suite(.timeLimit(.minutes(5))) struct DatabaseProbeTests {
    @Test func aWritableDatabaseWithRoomPasses() async throws {
        let database = try TemporaryDatabase()
        let store = try database.open()
        #expect(await DatabaseProbe(path: database.path).check() == nil)
        try await store.close()
    }

    /// The lock test passes on a full disk (taking the lock writes nothing) while every commit
    /// fails: the free space says so. Here "full" is a minimum no file system has.
    @Test func aFileSystemWithoutRoomIsNotWritable() async throws {
        let database = try TemporaryDatabase()
        let store = try database.open()
        let problem = try #require(await DatabaseProbe(path: database.path, minimumFreeBytes: .max).check())
        #expect(problem.hasPrefix("the database's file system is full: "), "\(problem)")
        try await store.close()
    }

    /// A database file removed or replaced under a running relay: it goes on writing to the old
    /// file, whose contents a restart would not find. The check says so, and does not create a
    /// new empty database where the file was.
    @Test func aDatabaseFileRemovedOrReplacedWhileOpenIsReported() async throws {
        let database = try TemporaryDatabase()
        let store = try database.open()
        #expect(await store.checkWritable() == nil)
        let aside = database.path + ".aside"
        try FileManager.default.moveItem(atPath: database.path, toPath: aside)
        let removed = try #require(await store.checkWritable())
        #expect(removed.contains("was removed while the relay runs"), "\(removed)")
        #expect(!FileManager.default.fileExists(atPath: database.path), "the check created a database where the file was")
        // Put back, it is the same file again.
        try FileManager.default.moveItem(atPath: aside, toPath: database.path)
        #expect(await store.checkWritable() == nil)
        // A copy in its place is another file.
        try FileManager.default.copyItem(atPath: database.path, toPath: aside)
        try FileManager.default.removeItem(atPath: database.path)
        try FileManager.default.moveItem(atPath: aside, toPath: database.path)
        let replaced = try #require(await store.checkWritable())
        #expect(replaced.contains("was replaced while the relay runs"), "\(replaced)")
        try await store.close()
    }

    /// The probe alone, with the file gone (removed after the store's identity check, say): it
    /// reports it and leaves no new database behind for a restart to open.
    @Test func aRemovedFileIsReportedAndNotCreated() async throws {
        let database = try TemporaryDatabase()
        let store = try database.open()
        try await store.close()
        try FileManager.default.removeItem(atPath: database.path)
        let problem = try #require(await DatabaseProbe(path: database.path).check())
        #expect(problem.contains("is not there"), "\(problem)")
        #expect(!FileManager.default.fileExists(atPath: database.path), "the probe created a database where the file was")
    }

    @Test func aDirectoryThatIsNotThereIsNotWritable() async throws {
        let problem = await DatabaseProbe(path: "/nonexistent-dir/relay.sqlite").check()
        #expect(problem != nil)
    }
}
