import Foundation
import PushCore
import PushSending
import StoreContract

/// A message event's intake as the engine plans it: the members' state in one read, the planner's
/// decisions by each app route's payload format, and the rows to commit (a delivery per push,
/// with the push type and priority its provider's route stores, and the badge counts when the app
/// syncs badges). The webhook's HTTP handling stays in the service.
public struct IntakePlanner: Sendable {
    public let store: any RelayStore

    public init(store: any RelayStore) {
        self.store = store
    }

    /// - Parameters:
    ///   - templates: the app's configured templates (those changed through REST replace them).
    ///   - badgeSync: whether the app has `badge_sync` (its pushes' counts are recorded).
    public func plan(
        _ event: WebhookEvent, target: DeliveryTarget, templates: PushTemplateSet, badgeSync: Bool, nowMs: Int64
    ) async throws -> AcceptedEvent {
        // Members skipped for reasons in the event alone (sender, online, …) need no lookup.
        let policy = RecipientPolicy(options: target.options)
        let members = event.members.filter { policy.skipBeforePreferences(event: event, member: $0) == nil }.map(\.userID)
        let (states, stored) = try await store.recipientStatesAndTemplates(
            app: event.appID, users: members, channel: event.channel.channelURL)
        let planner = PushPlanner(options: target.options, templates: templates.replacing(stored), formats: target.formats)
        let plan = planner.plan(event, lookup: RecipientLookup(states), now: Date(timeIntervalSince1970: Double(nowMs) / 1000))
        let expiresAt = nowMs + target.timeToLive.milliseconds
        var accepted = AcceptedEvent(plan: plan, senderID: event.sender?.userID, acceptedAtMs: nowMs) {
            // The id names the delivery at the provider (the push id) and in logs and retries.
            let provider = $0.deviceToken.provider
            return NewDelivery(
                planned: $0, pushID: PushID.random(), pushType: target.storedPushType(for: provider),
                priority: target.storedPriority(for: provider), expiresAtMs: expiresAt)
        }
        if badgeSync { accepted.badges = Self.badges(plan, event: event) }
        store.prepareForCommit(&accepted)
        return accepted
    }

    /// What each push tells its recipient's badge (`BadgeStore`: a waiting badge push must not undo it).
    static func badges(_ plan: PushPlan, event: WebhookEvent) -> BadgeSnapshot {
        let pushed = Set(plan.recipients.lazy.filter { $0.decision == .push }.map { ExactID($0.userID) })
        var counts: [ExactID: Int] = [:]
        for member in event.members where pushed.contains(ExactID(member.userID)) {
            counts[ExactID(member.userID)] = member.totalUnreadMessageCount
        }
        return BadgeSnapshot(counts: counts, atMs: event.message.createdAt)
    }
}
