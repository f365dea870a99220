import APNs
import Foundation
import PushCore
import PushService
import PushStore
import StoreContract

/// Fills a store with a delivery log the way the relay writes one, for `scripts/bench-costs.sh`
/// curves 3 (a log of millions of sent pushes) and 4 (a backlog an APNs outage leaves): every
/// event goes through the relay's own parse, recipient read, planner, commit and outcome record,
/// so the seeded rows follow every migration (shared and packed payloads, skip decisions, what a
/// plain 200 logs) instead of a copy of the schema that ages.
///
/// Events are 10-member channels of `bench_events.py`'s shape: the sender u(e·31 mod users), one
/// online member, 8 offline (tokens hex(u+1), registered beforehand), message ids from
/// `messageBase`, created evenly over [fromMs, toMs).
struct LogSeeder {
    enum Outcome: String {
        /// Answered 200 by APNs, as the relay records it (no attempt row).
        case sent
        /// Left by an outage: one attempt that could not connect, due again at `dueAtMs`.
        case pending
    }

    var users: Int
    var outcome: Outcome
    var fromMs: Int64
    var toMs: Int64
    var dueAtMs: Int64
    var messageBase: Int64
    /// Events per transaction: a commit's fsync amortised, as under a full webhook load.
    var eventsPerCommit = 1_000

    /// Writes `deliveries / 8` events; returns how many deliveries were stored.
    func seed(_ store: SQLiteStore, deliveries: Int) async throws -> Int {
        let events = deliveries / 8
        let planner = PushPlanner(formats: [.apns: .notification])
        let policy = RecipientPolicy()
        var stored = 0
        var first = 0
        while first < events {
            let range = first..<min(first + eventsPerCommit, events)
            var batch: [AcceptedEvent] = []
            for e in range {
                let createdAtMs = fromMs + Int64(e) * (toMs - fromMs) / Int64(events)
                let event = try WebhookEnvelope(json: body(event: e)).offlineMessageEvent()
                let members = event.members.filter { policy.skipBeforePreferences(event: event, member: $0) == nil }.map(\.userID)
                let (states, _) = try store.recipientStatesAndTemplates(app: "bench-app", users: members, channel: event.channel.channelURL)
                let plan = planner.plan(
                    event, lookup: RecipientLookup(states), now: Date(timeIntervalSince1970: Double(createdAtMs) / 1000))
                var accepted = AcceptedEvent(plan: plan, senderID: event.sender?.userID, acceptedAtMs: createdAtMs) {
                    NewDelivery(
                        planned: $0, pushID: APNsID.random(), pushType: "alert", priority: 10, expiresAtMs: max(toMs, dueAtMs) + 86_400_000)
                }
                accepted.handedOff = true
                batch.append(accepted)
            }
            let ids = try await store.commitEvents(batch)
            var outcomes: [DeliveryOutcome] = []
            for (event, eventIDs) in zip(batch, ids) {
                guard let eventIDs else { continue }
                for (id, delivery) in zip(eventIDs, event.deliveries) {
                    outcomes.append(outcomeOf(id, pushID: delivery.pushID, createdAtMs: event.acceptedAtMs))
                }
            }
            try await store.recordOutcomes(outcomes)
            stored += outcomes.count
            first = range.upperBound
        }
        return stored
    }

    private func outcomeOf(_ id: Int64, pushID: UUID, createdAtMs: Int64) -> DeliveryOutcome {
        switch outcome {
        case .sent:
            let at = createdAtMs + 20
            return DeliveryOutcome(
                deliveryID: id, state: .sent, atMs: at,
                attempt: DeliveryAttempt(atMs: at, status: 200, reason: nil, error: nil, pushID: pushID))
        case .pending:
            let at = createdAtMs + 20
            return DeliveryOutcome(
                deliveryID: id, state: .pending, atMs: at,
                attempt: DeliveryAttempt(atMs: at, status: nil, reason: nil, error: "connection refused", pushID: pushID),
                nextAttemptAtMs: dueAtMs)
        }
    }

    private func body(event e: Int) -> Data {
        let sender = e * 31 % users
        return BenchEvent.body(members: (0..<10).map { (sender + $0) % users }, messageID: messageBase + Int64(e), number: e)
    }
}
