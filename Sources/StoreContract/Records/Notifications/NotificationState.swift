/// Where a notification is: waiting for its time, going out, finished, or cancelled.
public enum NotificationState: String, Sendable, Hashable, CaseIterable {
    /// Waiting for `send_at` (nothing planned yet).
    case scheduled
    /// Its audience is being planned (and, for a local time of day, waiting for each user's time).
    case sending
    /// Every user of its audience is planned: their pushes are in the queue or sent.
    case done
    /// Cancelled before it was done: no more users are planned, and its pushes still waiting in
    /// the queue are dropped.
    case cancelled

    /// Whether it can still change (be cancelled, plan more users).
    public var isOpen: Bool { self == .scheduled || self == .sending }
}

/// Where the fan-out of a notification stands.
public enum NotificationPhase: String, Sendable, Hashable {
    /// Walking the audience in byte order of user ids, planning each user now.
    case audience
    /// Walking the audience to note each user's own time (a local time of day).
    case staging
    /// Planning noted users as their times come.
    case due
}
