import Foundation
import Logging
import PushCore
import StoreContract

/// Sends notifications of the app's server (`NotificationStore`): takes one that is due, plans its
/// audience a batch at a time (each batch committed with the walk's position), and wakes the
/// dispatcher, which sends the deliveries like a webhook's. Memory is bounded by a batch, not by
/// the audience. Every relay of a fleet runs one; a notification is held by one relay at a time,
/// and taken over by another when its hold expires (its relay died).
public final class NotificationFanOut: Sendable {
    public struct Settings: Sendable {
        /// Users read and planned in one transaction.
        public var batchSize = 500
        /// How long a relay holds a notification without committing a batch.
        public var leaseMs: Int64 = 30_000
        /// Batches of one notification before the others due get their turn.
        public var stepsPerClaim = 8
        /// How often a relay looks for notifications it was not told of (another relay's, a
        /// scheduled one's time).
        public var poll: Duration = .seconds(1)

        public init() {}
    }

    let store: any RelayStore
    let targets: any DeliveryTargetProvider
    let settings: Settings
    let owner: String
    let clock: @Sendable () -> Int64
    let wakeDispatcher: @Sendable () -> Void
    /// The dispatcher's: a fan-out queues within half of each app's backlog promise (chat
    /// webhooks keep the rest) and counts what it queued.
    let backlog: BacklogLedger?
    let logger: Logger
    private let wakeup = FanOutWakeup()
    private let metrics = DeliveryMetrics.Handles()

    public init(
        store: any RelayStore, targets: any DeliveryTargetProvider, settings: Settings = Settings(),
        owner: String = UUID().uuidString, clock: @escaping @Sendable () -> Int64,
        wakeDispatcher: @escaping @Sendable () -> Void, backlog: BacklogLedger? = nil,
        logger: Logger = Logger(label: "NotificationFanOut")
    ) {
        self.store = store
        self.targets = targets
        self.settings = settings
        self.owner = owner
        self.clock = clock
        self.wakeDispatcher = wakeDispatcher
        self.backlog = backlog
        self.logger = logger
    }

    /// A notification was accepted or cancelled: look now instead of at the next poll.
    public func poke() { wakeup.poke() }

    /// Runs until the task is cancelled.
    public func run() async {
        while !Task.isCancelled {
            do {
                // A read first: an idle relay takes no write transaction (the webhook's writer) per poll.
                let next = try await store.nextNotificationRunAtMs()
                if let next, next <= clock(), try await runOnce() { continue }
                let wait = next.map { Duration.milliseconds(max(0, $0 - clock())) } ?? settings.poll
                await wakeup.wait(atMost: min(wait, settings.poll))
            } catch {
                // The relay stopping (a port already taken stops it at once) cancels a pass under
                // way: that is no failure, and nothing is left to retry.
                if error is CancellationError || Task.isCancelled { return }
                logger.warning("notification fan-out failed; retrying", metadata: ["error": "\(store.describe(error))"])
                await wakeup.wait(atMost: settings.poll)
            }
        }
    }

    /// Takes one due notification and plans up to `stepsPerClaim` batches of it; false when none
    /// was due.
    public func runOnce() async throws -> Bool {
        guard var record = try await store.claimNotification(owner: owner, nowMs: clock(), leaseMs: settings.leaseMs) else {
            return false
        }
        for _ in 0..<settings.stepsPerClaim {
            guard let next = try await step(record) else { break }
            record = next
            if record.nextRunAtMs > clock() { break }
        }
        return true
    }

    /// One batch of `record`; the record after it, or nil when it finished or is no longer held.
    func step(_ record: NotificationRecord) async throws -> NotificationRecord? {
        let step = NotificationStep(
            record: record, owner: owner, nowMs: clock(), leaseMs: settings.leaseMs, batchSize: settings.batchSize)
        let batch: NotificationBatch
        if let content = NotificationContent(stored: record.request.content), let target = targets.target(forApp: record.appID) {
            batch = try await decide(step, content: content, target: target)
        } else {
            // The app left the configuration, or the content cannot be read: nothing can be sent.
            logger.warning("notification dropped: its app is not configured", metadata: ["notification": "\(record.id)"])
            batch = step.move(to: record.phase, cursor: record.cursor, nextRunAtMs: step.nowMs, finished: true)
        }
        guard try await store.commitNotificationBatch(batch) else { return nil }
        count(batch)
        if !batch.deliveries.isEmpty {
            backlog?.accepted(app: batch.appID, count: batch.deliveries.count, atMs: batch.nowMs)
            wakeDispatcher()
        }
        guard !batch.finished else { return nil }
        var next = record
        next.phase = batch.phase
        next.cursor = batch.cursor
        next.plannedUsers += batch.plannedCount
        next.nextRunAtMs = batch.nextRunAtMs
        return next
    }

    /// What this step reads and plans, by phase.
    private func decide(_ step: NotificationStep, content: NotificationContent, target: DeliveryTarget) async throws
        -> NotificationBatch
    {
        let record = step.record
        // A batch may queue a push per user and device: wait while the app's queue is full enough.
        if record.phase != .staging, let wait = backlog?.fanOutWait(app: record.appID, count: step.limit, nowMs: step.nowMs) {
            return step.move(to: record.phase, cursor: record.cursor, nextRunAtMs: step.nowMs + wait)
        }
        switch record.phase {
        case .audience, .staging:
            let users = try await audience(record, limit: step.limit)
            guard !users.isEmpty else {
                return record.phase == .audience
                    ? step.move(to: .audience, cursor: record.cursor, nextRunAtMs: step.nowMs, finished: true)
                    : step.move(to: .due, cursor: nil, nextRunAtMs: step.nowMs)
            }
            let states = try await store.recipientStates(app: record.appID, users: users, channel: "")
            if record.phase == .staging, let minute = record.request.localMinute.flatMap(LocalTimeOfDay.init(minuteOfDay:)) {
                return step.note(users, states: states, minute: minute)
            }
            return step.plan(users, states: states, content: content, target: target)
        case .due:
            let due = try await store.dueRecipients(notificationID: record.id, nowMs: step.nowMs, limit: step.limit)
            guard !due.isEmpty else {
                let next = try await store.nextRecipientDueAtMs(notificationID: record.id)
                return step.move(to: .due, cursor: nil, nextRunAtMs: next ?? step.nowMs, finished: next == nil)
            }
            let users = due.map(\.userID)
            let states = try await store.recipientStates(app: record.appID, users: users, channel: "")
            var batch = step.plan(users, states: states, content: content, target: target)
            batch.planned = due
            return batch
        }
    }

    /// The next users of the audience after the cursor, in byte order.
    private func audience(_ record: NotificationRecord, limit: Int) async throws -> [String] {
        switch record.request.audience {
        case .users: record.request.audience.listed(after: record.cursor, limit: limit)
        case .topic(let topic): try await store.topicSubscribers(app: record.appID, topic: topic, after: record.cursor, limit: limit)
        }
    }

    private func count(_ batch: NotificationBatch) {
        var decisions: [String: Int] = [:]
        for decision in batch.decisions { decisions[decision.decision.skipReason?.rawValue ?? "push", default: 0] += 1 }
        for (decision, count) in decisions { metrics.notificationUsers(app: batch.appID, decision: decision, count: count) }
        if batch.finished { metrics.notification(app: batch.appID, state: NotificationState.done.rawValue) }
    }
}
