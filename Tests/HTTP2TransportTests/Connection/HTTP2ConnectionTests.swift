import Foundation
import Testing

@testable import HTTP2Transport

#if canImport(Glibc)
    import Glibc
#endif

/// The wake-up pipe's descriptors live exactly as long as the connection object: `enqueue`
/// writes to it after releasing the lock, so closing it when the thread ends (while another
/// thread may still hold the object) could write a wake-up byte into a descriptor number reused
/// for something else; never closing it would leak two descriptors per connection replaced.
@Suite("HTTP/2 connection's wake-up pipe", .timeLimit(.minutes(5)))
struct HTTP2ConnectionTests {
    /// The pipe's inode, or nil when `fd` is closed (or now something other than that pipe).
    private static func inode(_ fd: Int32) -> UInt? {
        var info = stat()
        guard fstat(fd, &info) == 0 else { return nil }
        return UInt(info.st_ino)
    }

    @Test func theThreadsEndKeepsThePipeAndTheObjectsEndClosesIt() throws {
        let (fd, pipe) = try Self.closedConnectionsPipe()
        // The object is gone: closed; the number may already serve another test's descriptor, never this pipe.
        #expect(Self.inode(fd) != pipe)
    }

    /// Makes a connection, ends its thread's part (`markClosed`) while the object lives, and
    /// returns its wake-up pipe's read end and inode once the object is released.
    private static func closedConnectionsPipe() throws -> (fd: Int32, inode: UInt) {
        let connection = try #require(HTTP2Connection(id: 1))
        return try withExtendedLifetime(connection) {
            let fd = connection.wakeFD
            let pipe = try #require(inode(fd))
            _ = connection.markClosed()
            #expect(inode(fd) == pipe, "still open while the object lives: a late wake-up writes to this pipe")
            return (fd, pipe)
        }
    }
}
