import Foundation

/// Snooze: a one-off pause between two instants. Checked before any do-not-disturb window because
/// Sendbird pauses "regardless of other settings" while it is on.
public enum Snooze {
    /// Active when enabled and `start ≤ now < end` (Unix milliseconds): the end instant itself is
    /// no longer snoozed, so back-to-back periods do not overlap.
    public static func isActive(_ preferences: UserPushPreferences, nowMs: Int64) -> Bool {
        preferences.snoozeEnabled
            && preferences.snoozeStartMs <= nowMs
            && nowMs < preferences.snoozeEndMs
    }

    public static func isActive(_ preferences: UserPushPreferences, at now: Date) -> Bool {
        isActive(preferences, nowMs: UnixTime.milliseconds(now))
    }
}
