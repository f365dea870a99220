import Foundation

/// Decides whether one user gets a notification of the app's server, and if not, why. The
/// user's own rules of a chat push, without the message's and channel's:
///
/// | # | reason | skips when |
/// |---|---|---|
/// | 1 | `trigger_off` | the user turned pushes off app-wide (`push_trigger_option: off`) |
/// | 2 | `snoozed` | snooze is on, unless the notification is time-sensitive |
/// | 3 | `do_not_disturb` | a do-not-disturb window covers now, unless time-sensitive |
/// | 4 | `no_token` | the user has no device token the app pushes to |
///
/// A time-sensitive notification (`interruption_level: time-sensitive`) passes do-not-disturb and
/// snooze, as iOS's time-sensitive level passes a Focus; never "off". `mention_only` concerns chat
/// messages and does not hold a notification back.
public enum NotificationPolicy {
    public static func decide(
        preferences: UserPushPreferences, deviceTokenCount: Int, timeSensitive: Bool, now: Date
    ) -> PushDecision {
        if preferences.pushTriggerOption == .off { return .skip(.triggerOff) }
        if !timeSensitive {
            if Snooze.isActive(preferences, at: now) { return .skip(.snoozed) }
            if DoNotDisturb.isActive(preferences, at: now) { return .skip(.doNotDisturb) }
        }
        if deviceTokenCount <= 0 { return .skip(.noToken) }
        return .push
    }
}
