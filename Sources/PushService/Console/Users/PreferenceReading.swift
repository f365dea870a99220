import Foundation
import PushCore

/// A user's app-wide preferences as the push policy reads them at `nowMs` (`RecipientPolicy`:
/// trigger option, then snooze, then do-not-disturb), each setting with whether it holds pushes
/// back right now, and the verdict for a message sent now.
struct PreferenceReading: Sendable, Equatable {
    struct Row: Sendable, Equatable {
        var name: String
        var value: String
        var tone: String
    }

    var rows: [Row]
    var verdict: String
    var verdictTone: String

    init(_ preferences: UserPushPreferences, hasDevices: Bool, nowMs: Int64) {
        let now = Date(timeIntervalSince1970: Double(nowMs) / 1000)
        let snoozed = Snooze.isActive(preferences, nowMs: nowMs)
        let quiet = DoNotDisturb.isActive(preferences, at: now)
        let trigger = preferences.pushTriggerOption
        rows = [
            Row(name: "Push trigger", value: Self.describe(trigger), tone: trigger == .off ? "bad" : (trigger == .all ? "good" : "warn")),
            Row(name: "Snooze", value: Self.describeSnooze(preferences, active: snoozed), tone: snoozed ? "bad" : "muted"),
            Row(name: "Do not disturb", value: Self.describeDND(preferences, active: quiet), tone: quiet ? "bad" : "muted"),
            Row(name: "Time zone", value: preferences.timezone, tone: "muted"),
            Row(
                name: "Pushes from bots", value: Self.describeBots(preferences),
                tone: preferences.blockPushFromBots ? "warn" : "muted"),
            Row(name: "Sound", value: preferences.pushSound, tone: "muted"),
        ]
        let (text, tone) = Self.verdict(trigger: trigger, snoozed: snoozed, quiet: quiet, hasDevices: hasDevices)
        verdict = text
        verdictTone = tone
    }

    /// What the policy would decide for a message now, in its order; with the tone to show it in.
    static func verdict(trigger: PushTriggerOption, snoozed: Bool, quiet: Bool, hasDevices: Bool) -> (String, String) {
        if trigger == .off { return ("No pushes: the user turned push notifications off (trigger_off).", "bad") }
        if snoozed { return ("No pushes now: the user's snooze is on (snoozed).", "bad") }
        if quiet { return ("No pushes now: a do-not-disturb window covers this moment (do_not_disturb).", "bad") }
        if !hasDevices { return ("No pushes: the user has no device token (no_token).", "bad") }
        if trigger == .mentionOnly {
            return ("Pushes only for messages that mention the user, unless a channel says otherwise.", "warn")
        }
        return ("A message now would be pushed, unless the channel's own setting or the user being online stops it.", "good")
    }

    static func describe(_ option: PushTriggerOption) -> String {
        switch option {
        case .all: "all messages (all)"
        case .mentionOnly: "only mentions (mention_only)"
        case .off: "off — no pushes (off)"
        }
    }

    static func describeSnooze(_ p: UserPushPreferences, active: Bool) -> String {
        guard p.snoozeEnabled else { return "off" }
        let period = "\(ConsoleFormat.time(p.snoozeStartMs)) to \(ConsoleFormat.time(p.snoozeEndMs))"
        return (active ? "on now: " : "set, not now: ") + period
    }

    static func describeDND(_ p: UserPushPreferences, active: Bool) -> String {
        let now = active ? "on now" : "not now"
        if !p.dndSchedules.isEmpty {
            let days = p.dndSchedules.map { schedule in
                "\(schedule.dayOfWeek.rawValue) " + schedule.timeWindows.map(window).joined(separator: ", ")
            }
            return "\(now); weekly: " + days.joined(separator: "; ")
        }
        guard p.doNotDisturb else { return "off" }
        return "\(now); daily \(window(p.dndWindow)) (\(p.timezone))"
    }

    static func describeBots(_ p: UserPushPreferences) -> String {
        guard p.blockPushFromBots else { return "allowed" }
        return p.pushBlockedBotIDs.isEmpty ? "all blocked" : "blocked: " + p.pushBlockedBotIDs.joined(separator: ", ")
    }

    private static func window(_ w: TimeWindow) -> String {
        String(format: "%02d:%02d–%02d:%02d", w.startHour, w.startMin, w.endHour, w.endMin)
    }
}
