import Foundation
import PushCore

/// One push to queue, as the webhook planned it.
public struct NewDelivery: Sendable, Hashable {
    public var userID: String
    public var deviceToken: String
    public var payload: Data
    /// Chosen at accept time and sent with every retry, so APNs and logs can tell retries apart
    /// from new pushes.
    public var pushID: UUID
    /// Where it goes.
    public var provider: PushProvider
    /// The provider's push type (APNs' `apns-push-type`, e.g. `alert`; the provider's name for one that has none).
    public var pushType: String
    /// The provider's priority (APNs' `apns-priority`: 10, 5 or 1).
    public var priority: Int
    /// Unix ms after which the delivery is expired instead of sent.
    public var expiresAtMs: Int64
    /// Where `payload` repeats its event's `AcceptedEvent.sharedPayload`: stored once per event.
    public var sharedSpans: [SharedSpan]
    /// The configuration the token was registered to when planned (`DeviceToken.configuration`),
    /// for a delivery handed to the dispatcher without a claim; not a column: a claim reads the
    /// token's current one.
    public var configuration: String?

    public init(
        userID: String, deviceToken: String, payload: Data, pushID: UUID, provider: PushProvider, pushType: String, priority: Int,
        expiresAtMs: Int64, sharedSpans: [SharedSpan] = [], configuration: String? = nil
    ) {
        self.userID = userID
        self.deviceToken = deviceToken
        self.payload = payload
        self.pushID = pushID
        self.provider = provider
        self.pushType = pushType
        self.priority = priority
        self.expiresAtMs = expiresAtMs
        self.sharedSpans = sharedSpans
        self.configuration = configuration
    }
}

extension NewDelivery {
    /// A planned push as the store queues it: its recipient, token, payload and shared spans as
    /// planned, with what the sending side adds.
    public init(planned: PlannedDelivery, pushID: UUID, pushType: String, priority: Int, expiresAtMs: Int64) {
        self.init(
            userID: planned.userID, deviceToken: planned.deviceToken.token, payload: planned.payload, pushID: pushID,
            provider: planned.deviceToken.provider, pushType: pushType, priority: priority, expiresAtMs: expiresAtMs,
            sharedSpans: planned.sharedSpans, configuration: planned.deviceToken.configuration)
    }
}
