import Foundation
import Testing
@testable import PushStore

/// `GET /ready`'s check of a SQLite database: the write lock, then room on its file system.
@Suite struct DatabaseProbeTests {
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

    @Test func aDirectoryThatIsNotThereIsNotWritable() async throws {
        let problem = await DatabaseProbe(path: "/nonexistent-dir/relay.sqlite").check()
        #expect(problem != nil)
    }
}
