import PushCore
import ProviderDriver

/// What a device reports about one push, read from Sendbird's body: `{"device_token",
/// "push_tracking_id", "event_type", …}` (`POST /v3/sdk/push_delivery`, as Sendbird's JavaScript
/// SDK sends it from `markPushNotificationAsDelivered` and `markPushNotificationAsClicked`; and
/// `POST /v3/sdk/push_click`, whose path names the event). Fields the SDK adds (`message_id`,
/// `channel_key`, `template_key`, …) are not needed: the tracking id names the message.
struct PushEventReport: Sendable, Hashable {
    /// Sendbird's `event_type` values.
    enum Event: String, Sendable, CaseIterable {
        /// The device got the push.
        case delivered = "DELIVERED"
        /// The user opened it (tapped the notification).
        case clicked = "CLICKED"
    }

    /// A reading of the device token as one provider's token.
    struct Candidate: Sendable, Hashable {
        var provider: PushProvider
        var token: String
    }

    /// Each provider's token the device token can be: an iOS device posts its APNs token (any
    /// case), an Android one its FCM or HMS token (as is).
    var candidates: [Candidate]
    var tracking: PushTrackingID
    var event: Event

    /// - Parameter pathEvent: the event the path names (`push_click`), or nil when the body says
    ///   (`push_delivery`: `DELIVERED` when it does not). A body stating another event than the
    ///   path's is refused, not guessed at.
    init(_ body: JSONObject, pathEvent: Event? = nil) throws(APIError) {
        guard let rawToken = try body.string("device_token") else { throw .missing("device_token") }
        var candidates: [Candidate] = []
        let providers = ProviderCatalog.installed.descriptions
        for provider in providers {
            if case .success(let token) = provider.tokenFormat.normalise(rawToken) {
                candidates.append(Candidate(provider: provider.id, token: token))
            }
        }
        guard !candidates.isEmpty else {
            throw .invalidValue("device_token", "is not a device token of \(providers.map(\.displayName).joinedWithOr)")
        }
        self.candidates = candidates
        guard let rawID = try body.string("push_tracking_id") else { throw .missing("push_tracking_id") }
        guard let tracking = PushTrackingID(rawID) else { throw .invalidValue("push_tracking_id", "is not one this relay wrote") }
        self.tracking = tracking
        event = try Self.event(body, pathEvent: pathEvent)
    }

    private static func event(_ body: JSONObject, pathEvent: Event?) throws(APIError) -> Event {
        let allowed = pathEvent.map { [$0] } ?? Event.allCases
        guard let raw = try body.string("event_type") else { return pathEvent ?? .delivered }
        guard let event = Event(rawValue: raw), allowed.contains(event) else {
            let names = allowed.map { "\"\($0.rawValue)\"" }.joined(separator: " or ")
            throw .invalidValue("event_type", "must be \(names)")
        }
        return event
    }
}
