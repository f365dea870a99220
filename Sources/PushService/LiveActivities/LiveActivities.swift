import Foundation
import Logging
import Metrics
import ProviderDriver
import PushCore
import PushEngine
import PushStore
import StoreContract

/// Starts, updates and ends Live Activities: builds the ActivityKit payload, queues one push per
/// token through the delivery queue (durable like a message's, retried, logged under the user
/// with message id 0) and wakes the dispatcher. The provider is whichever driver declares a Live
/// Activity push type (`ProviderDescription.liveActivityPushType`): APNs.
struct LiveActivities: Sendable {
    let store: any RelayStore
    let targets: any DeliveryTargetProvider
    /// After a push is queued (`Dispatcher.wake`).
    let wake: @Sendable () -> Void
    let clock: @Sendable () -> Int64

    /// The app's channel management (APNs' with a token key), or why it has none.
    func channelService(app: String) throws(APIError) -> any BroadcastChannelService {
        let (provider, _, _) = try route(app: app)
        guard let service = targets.target(forApp: app)?.routes[provider]?.broadcastChannels else {
            throw APIError.invalidValue(
                "app", "cannot manage broadcast channels: its APNs settings need a .p8 token key, and a custom endpoint channel_management")
        }
        return service
    }

    /// Queues a broadcast of `change` (an update or end) to the channel `change.activityID`;
    /// false when the app has no such channel.
    func broadcast(_ change: LiveActivityChange, app: String) async throws -> Bool {
        let (provider, _, timeToLive) = try route(app: app)
        guard let pushType = ProviderCatalog.installed.description(of: provider)?.broadcastPushType else {
            throw APIError.invalidValue("app", "has no provider with broadcast channels")
        }
        let payload: [UInt8]
        do {
            payload = try change.content.payload()
        } catch {
            throw APIError.invalidValue("content_state", "\(error)")
        }
        let now = clock()
        let push = LiveActivityPush(
            appID: app, activityID: change.activityID, event: change.event, payload: Data(payload), provider: provider,
            pushType: pushType, priority: change.priority, expiresAtMs: now + timeToLive.milliseconds, atMs: now)
        guard try await store.queueBroadcast(push) else { return false }
        wake()
        Counter(
            label: "pushrelay_live_activity_pushes_total",
            dimensions: [("app", app), ("event", "broadcast_" + change.event.rawValue), ("priority", String(change.priority))]
        ).increment()
        return true
    }

    /// The provider that carries Live Activities, its push type, and how long the app's pushes live.
    private func route(app: String) throws(APIError) -> (provider: PushProvider, pushType: String, timeToLive: Duration) {
        let catalog = ProviderCatalog.installed
        let carrier = catalog.descriptions.first { $0.liveActivityPushType != nil }
        guard let carrier, let pushType = carrier.liveActivityPushType, let target = targets.target(forApp: app),
            target.delivers(through: carrier.id)
        else {
            let name = carrier?.displayName ?? "a provider with Live Activities"
            throw APIError.invalidValue("app", "has no \(name) settings: Live Activities are sent through \(name)")
        }
        return (carrier.id, pushType, target.timeToLive)
    }

    /// Queues `change`'s pushes; the activity as it now stands and how many pushes went out.
    func send(_ change: LiveActivityChange, app: String) async throws -> (LiveActivityRecord?, pushes: Int) {
        let (provider, pushType, timeToLive) = try route(app: app)
        let payload: [UInt8]
        do {
            payload = try change.content.payload()
        } catch {
            throw APIError.invalidValue(change.event == .start ? "content_state or attributes" : "content_state", "\(error)")
        }
        let now = clock()
        let push = LiveActivityPush(
            appID: app, activityID: change.activityID, event: change.event, userID: change.userID,
            attributesType: change.content.attributesType, payload: Data(payload), provider: provider, pushType: pushType,
            priority: change.priority, expiresAtMs: now + timeToLive.milliseconds, atMs: now, removeAtMs: change.dismissalAtMs)
        switch try await store.queueLiveActivityPush(push) {
        case .queued(let record, let pushes):
            wake()
            Counter(
                label: "pushrelay_live_activity_pushes_total",
                dimensions: [("app", app), ("event", change.event.rawValue), ("priority", String(change.priority))]
            ).increment(by: pushes)
            return (record, pushes)
        case .unknownActivity: throw APIError.notFound("Live Activity")
        case .ended: throw APIError.invalidValue("activity_id", "names an activity that has ended")
        case .otherUsersActivity: throw APIError.invalidValue("activity_id", "names another user's activity")
        case .noToken:
            throw APIError.invalidValue(
                change.event == .start ? "user_id" : "activity_id",
                change.event == .start
                    ? "has no push-to-start token for this attributes_type" : "names an activity without an update token yet")
        }
    }
}
