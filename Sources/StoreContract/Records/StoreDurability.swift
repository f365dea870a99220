/// How hard a commit waits for the disk (`PRAGMA synchronous` of the writer).
///
/// The webhook answers 200 only after its event is committed, so the promise "accepted means
/// not lost" is as strong as this setting:
/// - `full` (the default): every commit syncs the WAL; an accepted event survives a kill -9 and
///   a power loss. Group commit makes the cost one fsync per batch of webhooks, not per webhook.
/// - `normal`: the WAL is synced only at checkpoints; survives kill -9 (the OS has the data) but
///   the last commits may be lost on power loss or a kernel crash.
public enum StoreDurability: String, Sendable, Hashable, CaseIterable {
    case full
    case normal

}
