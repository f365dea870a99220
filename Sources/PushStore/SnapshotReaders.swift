import GRDB
import StoreContract
import Synchronization

/// Read connections for the webhook's recipient reads that keep their read transaction, and so
/// their page cache, from one read to the next until the next checkpoint or registry write.
///
/// SQLite empties a connection's page cache whenever a read transaction begins after any commit,
/// and the writer commits several hundred times a second under load: every read went down the
/// `users` B-tree from its root, a `pread` per page. At a million registered users, where nine
/// recipients in ten miss `RecipientCache`, that and GRDB's per-read transaction were about 40 %
/// of the webhook's CPU (docs/benchmarks.md, "Reads that keep their snapshot").
///
/// A held snapshot is safe to read from because of what it is compared with:
/// - **Registry writes**: a snapshot records the registry generation taken before it began
///   (`RecipientCache.Version`), and is used to read an app only while that app's last write is
///   stamped no later (`RegistryVersions`): it has every write of the app. Another app's writes
///   leave it in use.
/// - **Checkpoints**: a reader holding a snapshot keeps a checkpoint from copying frames past it,
///   and the writer from restarting the WAL. `WALCheckpointer` calls `releaseForCheckpoint`
///   before each passive checkpoint: idle readers end their transactions, and a transaction begun
///   before `checkpointDone` ends as its reader is returned. A snapshot so lives at most one
///   checkpoint interval (100 ms), and the checkpoint and the writer's restart of the WAL after
///   it see readers as short as GRDB's.
/// - **The WAL's size**: the writer restarts the WAL only at a moment no reader holds a part of
///   it, which under a steady load comes about as rarely as with GRDB's readers, and its own
///   backstop checkpoint (`WALCheckpointer.writerFallbackPages`) cannot coordinate with these.
///   Once a checkpoint finds the WAL past three quarters of that backstop, readers keep no
///   snapshot until a checkpoint finds it restarted, so the WAL stays as bounded as without them.
final class SnapshotReaders: Sendable {
    private struct Reader: Sendable {
        let queue: DatabaseQueue
        /// The registry generation taken before the open read transaction began; nil: none is open.
        var heldGeneration: UInt64?
        /// `State.epoch` when the transaction began.
        var heldEpoch: UInt64 = 0
    }

    private struct State: Sendable {
        /// Readers not in use; the last one returned is the next one lent (its cache is warmest).
        var idle: [Reader] = []
        /// Readers open, in use or idle.
        var count = 0
        /// Moves at every `releaseForCheckpoint` and `checkpointDone`: a transaction begun in an
        /// earlier epoch is ended when its reader is returned.
        var epoch: UInt64 = 0
        /// Checkpoints between `releaseForCheckpoint` and `checkpointDone` (the background one, a
        /// user's erasure): while any runs, no transaction outlives its read.
        var checkpoints = 0
        /// The last checkpoint found the WAL at `suspendingFrames` or more.
        var walIsLong = false
        var closed = false
    }

    private let state = Mutex(State())
    private let path: String
    private let configuration: Configuration
    private let maximumCount: Int
    private let holdsSnapshots: Bool
    /// Three quarters of the writer's backstop checkpoint: a WAL this long keeps no snapshot, so
    /// none is left when the backstop runs (a quarter is ~0.4 s of the WAL a 2-core machine
    /// writes at full load; the background checkpoints end held snapshots every 0.1 s).
    static let suspendingFrames = WALCheckpointer.writerFallbackPages * 3 / 4

    /// - Parameter holdsSnapshots: false: every read has a transaction of its own, as the pool's
    ///   do, and sees what was committed before it began (the store without a recipient cache:
    ///   a change made behind the store's back is seen by the next read).
    init(path: String, busyMode: Database.BusyMode, maximumCount: Int, holdsSnapshots: Bool) {
        var configuration = Configuration()
        configuration.label = "PushStore.snapshotReader"
        configuration.readonly = true
        configuration.busyMode = busyMode
        // The point of these connections: a read transaction left open between reads.
        configuration.allowsUnsafeTransactions = true
        self.configuration = configuration
        self.path = path
        self.maximumCount = max(1, maximumCount)
        self.holdsSnapshots = holdsSnapshots
    }

    /// Runs `body` in a read transaction that has every registry write of the app `version` is
    /// of; nil when every reader is in use or a new one cannot be opened (the caller reads
    /// through the pool instead).
    func read<T>(version: RecipientCache.Version, _ body: (Database) throws -> T) throws -> T? {
        guard let (lent, epoch) = lend() else { return nil }
        var reader = lent
        var keep = false
        defer { giveBack(reader, keep: keep) }
        let result = try reader.queue.inDatabase { db -> T in
            if let held = reader.heldGeneration, version.app > held || reader.heldEpoch != epoch || !db.isInsideTransaction {
                Self.end(db)
                reader.heldGeneration = nil
            }
            if reader.heldGeneration == nil {
                try db.beginTransaction(.deferred)
                reader.heldGeneration = version.generation
                reader.heldEpoch = epoch
            }
            do {
                return try body(db)
            } catch {
                Self.end(db)
                reader.heldGeneration = nil
                throw error
            }
        }
        keep = true
        return result
    }

    /// Ends every idle reader's transaction, and from now until `checkpointDone` each reader's
    /// as it is returned, so that a checkpoint can copy the whole WAL and the writer restart it.
    /// Each call is paired with one `checkpointDone`.
    func releaseForCheckpoint() {
        let taken = state.withLock { state -> [Reader] in
            state.epoch &+= 1
            state.checkpoints += 1
            defer { state.idle.removeAll() }
            return state.idle
        }
        let released = taken.map(Self.released)
        // Closed meanwhile (`close` found them lent to this call): closed here instead.
        let orphaned = state.withLock { state -> [Reader] in
            guard state.closed else {
                state.idle.append(contentsOf: released)
                return []
            }
            state.count -= released.count
            return released
        }
        for reader in orphaned { Self.close(reader) }
    }

    /// - Parameter walFrames: the WAL's length in frames as the checkpoint found it, if it says.
    func checkpointDone(walFrames: Int? = nil) {
        state.withLock { state in
            state.checkpoints -= 1
            // Begun while the checkpoint ran, a transaction may hold what it could not copy.
            state.epoch &+= 1
            if let walFrames { state.walIsLong = walFrames >= Self.suspendingFrames }
        }
    }

    /// Closes the idle readers; a reader in use is closed as it is returned.
    func close() {
        let taken = state.withLock { state -> [Reader] in
            state.closed = true
            defer { state.idle.removeAll() }
            return state.idle
        }
        for reader in taken { Self.close(reader) }
    }

    // MARK: Lending

    /// A reader, and the epoch its transaction must have been begun in to be kept. Nil when all
    /// are lent, or a new one cannot be opened (out of file descriptors under a flood of
    /// connections, say): the pool's readers may still serve, and report the error if not.
    private func lend() -> (Reader, epoch: UInt64)? {
        enum Lent {
            case idle(Reader)
            case open
            case none
        }
        let (lent, epoch) = state.withLock { state -> (Lent, UInt64) in
            if state.closed { return (.none, state.epoch) }
            if let reader = state.idle.popLast() { return (.idle(reader), state.epoch) }
            guard state.count < maximumCount else { return (.none, state.epoch) }
            state.count += 1
            return (.open, state.epoch)
        }
        switch lent {
        case .idle(let reader): return (reader, epoch)
        case .none: return nil
        case .open:
            guard let queue = try? DatabaseQueue(path: path, configuration: configuration) else {
                state.withLock { $0.count -= 1 }
                return nil
            }
            return (Reader(queue: queue), epoch)
        }
    }

    /// Back to the idle readers, its transaction ended first if a checkpoint is waiting for it (or
    /// `keep` is false: `body` threw, or the read never ran).
    private func giveBack(_ reader: Reader, keep: Bool) {
        // Deciding and returning under one lock: `releaseForCheckpoint` then either sees the
        // reader idle or has already told it to end its transaction.
        let mustEnd = state.withLock { state -> Bool in
            let mustEnd =
                !keep || !holdsSnapshots || state.closed || state.walIsLong || state.checkpoints > 0 || reader.heldEpoch != state.epoch
            if !mustEnd { state.idle.append(reader) }
            return mustEnd
        }
        guard mustEnd else { return }
        let released = Self.released(reader)
        let closed = state.withLock { state -> Bool in
            if state.closed {
                state.count -= 1
                return true
            }
            state.idle.append(released)
            return false
        }
        if closed { Self.close(released) }
    }

    private static func released(_ reader: Reader) -> Reader {
        guard reader.heldGeneration != nil else { return reader }
        var reader = reader
        reader.queue.inDatabase { db in end(db) }
        reader.heldGeneration = nil
        return reader
    }

    private static func close(_ reader: Reader) {
        try? released(reader).queue.close()
    }

    /// Ends a read transaction. A read-only transaction has nothing to lose: should `COMMIT`
    /// fail, `ROLLBACK` ends it all the same.
    private static func end(_ db: Database) {
        guard db.isInsideTransaction else { return }
        do { try db.commit() } catch { try? db.rollback() }
    }
}
