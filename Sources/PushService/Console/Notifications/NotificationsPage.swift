import PushCore
import StoreContract

/// The console's notifications: the app's recent ones with their state, and one with its counts.
/// Every text is escaped by the template.
struct NotificationsPage: Sendable {
    struct Row: Sendable {
        var href: String
        var id: String
        var state: String
        var audience: String
        var when: String
        var created: String
        var planned: String
    }

    struct Count: Sendable {
        var label: String
        var value: String
    }

    struct Detail: Sendable {
        var id: String
        var state: String
        var counts: [Count]
        var skips: [Count]
    }

    var chrome: ConsoleChrome
    var rows: [Row]
    var detail: Detail?

    static func row(_ record: NotificationRecord) -> Row {
        let request = record.request
        let audience: String =
            switch request.audience {
            case .topic(let topic): "topic \(topic)"
            case .users(let ids): "\(ids.count) listed users"
            }
        var when = ConsoleFormat.time(request.sendAtMs)
        if let minute = request.localMinute.flatMap(LocalTimeOfDay.init(minuteOfDay:)) { when = "\(minute) each user's time, from \(when)" }
        return Row(
            href: "/console/notifications?id=\(record.id)", id: String(record.id), state: record.state.rawValue, audience: audience,
            when: when, created: ConsoleFormat.time(request.createdAtMs), planned: String(record.plannedUsers))
    }

    static func detail(_ record: NotificationRecord, counts: NotificationCounts) -> Detail {
        let sent = counts.deliveries[DeliveryState.sent.rawValue] ?? 0
        let number = { (value: Int) in String(value) }
        return Detail(
            id: String(record.id), state: record.state.rawValue,
            counts: [
                Count(label: "Users decided", value: number(record.plannedUsers)),
                Count(label: "Users pushed", value: number(counts.pushedUsers)),
                Count(label: "Pushes sent", value: number(sent)),
                Count(label: "Pushes waiting", value: number((counts.deliveries["pending"] ?? 0) + (counts.deliveries["in_flight"] ?? 0))),
                Count(label: "Failed", value: number(counts.deliveries[DeliveryState.failed.rawValue] ?? 0)),
                Count(label: "Dead tokens", value: number(counts.deliveries[DeliveryState.tokenInvalid.rawValue] ?? 0)),
                Count(label: "Expired", value: number(counts.deliveries[DeliveryState.expired.rawValue] ?? 0)),
                Count(label: "Acknowledged by devices", value: number(counts.acknowledged)),
                Count(label: "Opened", value: number(counts.opened)),
            ],
            skips: counts.skipped.sorted { $0.key < $1.key }.map { Count(label: $0.key, value: number($0.value)) })
    }
}
