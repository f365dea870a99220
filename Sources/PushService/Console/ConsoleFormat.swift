import Foundation
import PushCore

/// How the console writes numbers and times: plain, the same on every page, times in UTC.
enum ConsoleFormat {
    /// A count: whole numbers without decimals, others with one; nil is "—".
    static func number(_ value: Double?) -> String {
        guard let value, value.isFinite else { return "—" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(format: "%.1f", value)
    }

    static func percent(_ share: Double) -> String {
        String(format: "%.0f %%", share * 100)
    }

    /// A wait: seconds, or minutes and seconds, or hours and minutes.
    static func seconds(_ value: Double) -> String {
        let total = Int(max(0, value).rounded())
        if total < 60 { return "\(total) s" }
        if total < 3600 { return "\(total / 60) min \(total % 60) s" }
        return "\(total / 3600) h \(total % 3600 / 60) min"
    }

    /// Unix milliseconds as `2026-11-28 14:03:22 UTC`.
    static func time(_ ms: Int64) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents(
            [.year, .month, .day, .hour, .minute, .second], from: Date(timeIntervalSince1970: Double(ms) / 1000))
        return String(
            format: "%04d-%02d-%02d %02d:%02d:%02d UTC", c.year ?? 0, c.month ?? 0, c.day ?? 0, c.hour ?? 0, c.minute ?? 0, c.second ?? 0)
    }

    /// A message id as a page names it: a notification of the app's server (its id negated) by its own id.
    static func message(_ id: Int64) -> String {
        NotificationPayload.notificationID(ofMessage: id).map { "notification \($0)" } ?? String(id)
    }

    /// An optional time; `none` when absent.
    static func time(_ ms: Int64?, none: String) -> String {
        ms.map { time($0) } ?? none
    }
}
