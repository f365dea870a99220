import StoreContract

/// How far back a user's delivery-log lists look when no per-user index serves them: within the
/// user's own app, so one tenant's volume never makes another's lists dearer, and an app's lists
/// cost at most this many index entries (read without touching the tables).
public enum PerAppLogWindow {
    /// The app's skip decisions of its highest message ids that `recentSkips` looks through.
    public static let decisions: Int64 = 100_000
    /// The app's newest message deliveries (SQLite's `recentDeliveries`), besides its test and badge pushes.
    public static let deliveries: Int64 = 100_000
}
