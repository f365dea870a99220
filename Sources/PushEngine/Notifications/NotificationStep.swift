import Foundation
import PushCore
import StoreContract

/// One step of a notification's fan-out, decided from what was read (no I/O): the users to plan or
/// note, and where the walk goes next. `NotificationFanOut` reads, asks this, and commits.
struct NotificationStep: Sendable {
    let record: NotificationRecord
    let owner: String
    let nowMs: Int64
    let leaseMs: Int64
    /// Users read per step.
    let batchSize: Int

    /// How many users this step reads: a paced notification reads no more than a minute's pushes.
    var limit: Int {
        guard let pace = record.request.pushesPerMinute else { return batchSize }
        return max(1, min(batchSize, pace))
    }

    /// When a paced notification may go on, after `deliveries` pushes: they take their share of a minute.
    func nextRunAtMs(afterDeliveries deliveries: Int) -> Int64 {
        guard let pace = record.request.pushesPerMinute, pace > 0, deliveries > 0 else { return nowMs }
        return nowMs + (Int64(deliveries) * 60_000 + Int64(pace) - 1) / Int64(pace)
    }

    /// A batch that only moves the walk (no user planned).
    func move(to phase: NotificationPhase, cursor: String?, nextRunAtMs: Int64, finished: Bool = false) -> NotificationBatch {
        NotificationBatch(
            notificationID: record.id, appID: record.appID, owner: owner, phase: phase, cursor: cursor, plannedCount: 0,
            nextRunAtMs: nextRunAtMs, finished: finished, nowMs: nowMs, leaseMs: leaseMs)
    }

    /// The batch that notes each user's own time (`staging`): users whose time has come already are
    /// due at once.
    func note(_ users: [String], states: [ExactID: RecipientPushState], minute: LocalTimeOfDay) -> NotificationBatch {
        let start = Date(timeIntervalSince1970: Double(record.request.sendAtMs) / 1000)
        let noted = users.map { user in
            let zone = states[ExactID(user)]?.preferences.timezone ?? UserPushPreferences.defaults.timezone
            let due = minute.next(onOrAfter: start, timezone: zone)
            return NotedRecipient(userID: user, dueAtMs: Int64((due.timeIntervalSince1970 * 1000).rounded(.up)))
        }
        var batch = move(to: .staging, cursor: users.last ?? record.cursor, nextRunAtMs: nowMs)
        batch.noted = noted
        return batch
    }

    /// The batch planning `users` now: every user's decision, the deliveries of those pushed.
    func plan(
        _ users: [String], states: [ExactID: RecipientPushState], content: NotificationContent, target: DeliveryTarget
    ) -> NotificationBatch {
        let payload = NotificationPayload(
            content: content, notificationID: record.id, defaultSound: target.options.defaultSound,
            maximumBytes: target.options.maxPayloadBytes, mutableContent: target.options.mutableContent)
        let planner = NotificationPlanner(payload: payload, formats: target.formats)
        let plans = planner.plan(users, lookup: RecipientLookup(states), now: Date(timeIntervalSince1970: Double(nowMs) / 1000))
        let timeToLive = content.timeToLiveSeconds.map { Int64($0) * 1000 } ?? target.timeToLive.milliseconds
        let deliveries = plans.flatMap(\.deliveries).map { planned in
            let provider = planned.deviceToken.provider
            return NewDelivery(
                planned: planned, pushID: UUID(), pushType: target.storedPushType(for: provider),
                priority: content.interruptionLevel == .passive ? 5 : target.storedPriority(for: provider),
                expiresAtMs: nowMs + timeToLive)
        }
        var batch = move(to: record.phase, cursor: users.last ?? record.cursor, nextRunAtMs: nextRunAtMs(afterDeliveries: deliveries.count))
        batch.decisions = plans.map { RecipientDecisionRecord(userID: $0.userID, decision: $0.decision) }
        batch.deliveries = deliveries
        batch.plannedCount = plans.count
        return batch
    }
}
