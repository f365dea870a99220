import Foundation
import GRDB
import StoreContract
import Synchronization

/// Copies the WAL back into the database file on a connection of its own, every `interval`, so
/// that a commit (and the webhook answer waiting on it) does not wait for a checkpoint.
///
/// SQLite's default checkpoint runs inside the commit that takes the WAL past 1,000 pages: that
/// commit also copies ~4 MB into the database file and syncs it, and every event in the group
/// commits behind it waits. Under load that was every ~0.1 s, the webhook's tail latency. A
/// passive checkpoint on another connection runs beside the writer (SQLite lets a writer append
/// while a checkpoint copies older frames) and gives up on nothing but frames a reader still
/// needs, which the next round copies. The writer keeps a checkpoint of its own at
/// `writerFallbackPages`, so the WAL stays bounded either way. Under a steady load that one is
/// also what restarts the WAL: SQLite restarts it only when a write begins with every frame
/// copied, and the writer appends while this one copies. It then has little left to copy, but it
/// syncs the database file inside a commit (every ~1.5 s at full load on 2 cores; docs/benchmarks.md,
/// "Goal 1's budget, measured again").
final class WALCheckpointer: Sendable {
    /// The writer's own automatic checkpoint, now only a backstop: 16× SQLite's default.
    static let writerFallbackPages = 16_000

    private let queue: DatabaseQueue
    private let loop: Mutex<Task<Void, Never>?> = Mutex(nil)

    /// - Parameters:
    ///   - synchronous: the writer's `PRAGMA synchronous` value; a checkpoint syncs the
    ///     database file as that setting says.
    ///   - busyMode: the store's; it covers opening only (the last connection of a store just
    ///     closed holds an exclusive lock while it cleans up the WAL). A passive checkpoint
    ///     never calls the busy handler.
    ///   - readers: connections that keep a read transaction between reads; each checkpoint
    ///     has them end it first (`SnapshotReaders.releaseForCheckpoint`).
    init(path: String, synchronous: String, busyMode: Database.BusyMode, interval: Duration, readers: SnapshotReaders) throws {
        var configuration = Configuration()
        configuration.label = "PushStore.checkpointer"
        configuration.busyMode = busyMode
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = \(synchronous)") }
        queue = try DatabaseQueue(path: path, configuration: configuration)
        let queue = queue
        // Holds the queue, not the store: a store dropped without `close()` stops it in `deinit`.
        loop.withLock {
            $0 = Task(priority: .utility) {
                while !Task.isCancelled {
                    try? await Task.sleep(for: interval)
                    guard !Task.isCancelled else { break }
                    // Passive: never waits for readers or the writer; what it cannot copy now
                    // (frames a reader still uses) is copied next time. A failure (the disk
                    // full, say) leaves the frames in the WAL, where they are just as durable.
                    readers.releaseForCheckpoint()
                    let frames = try? await queue.writeWithoutTransaction { db in try db.checkpoint(.passive).walFrameCount }
                    readers.checkpointDone(walFrames: frames)
                }
            }
        }
    }

    /// Stops the loop (after the checkpoint under way, if any) and closes its connection.
    func stop() async {
        let task = loop.withLock { task in
            defer { task = nil }
            return task
        }
        task?.cancel()
        await task?.value
        try? queue.close()
    }

    deinit {
        loop.withLock { $0?.cancel() }
    }
}
