import Foundation
import PushCore
import UUIDText

/// One queued push (to APNs or FCM) and where it stands.
public struct DeliveryRecord: Sendable, Hashable {
    public var id: Int64
    public var appID: String
    public var messageID: Int64
    public var userID: String
    public var deviceToken: String
    public var payload: Data
    public var pushID: UUID
    public var pushType: String
    public var priority: Int
    public var expiresAtMs: Int64
    public var state: DeliveryState
    /// Attempts that reached (or tried to reach) APNs.
    public var attempts: Int
    public var nextAttemptAtMs: Int64
    public var lastStatus: Int?
    public var lastReason: String?
    public var sentAtMs: Int64?
    public var createdAtMs: Int64
    public var updatedAtMs: Int64

    /// Where it goes.
    public var provider: PushProvider
    /// The app's provider configuration its token is registered to (`DeviceToken.configuration`):
    /// read from the token when claimed, nil for the app's default.
    public var configuration: String?
    /// The `apns-collapse-id` its notification asked for (`NewNotification.collapseKey`), read
    /// when claimed; nil: the message's own (`CollapseID`).
    public var collapseKey: String?

    /// A delivery just inserted by `commitEvents`, as the dispatcher would have claimed it.
    package init(id: Int64, event: AcceptedEvent, delivery d: NewDelivery) {
        self.id = id
        appID = event.appID
        messageID = event.messageID
        userID = d.userID
        deviceToken = d.deviceToken
        payload = d.payload
        pushID = d.pushID
        provider = d.provider
        configuration = d.configuration
        pushType = d.pushType
        priority = d.priority
        expiresAtMs = d.expiresAtMs
        state = event.handedOff ? .inFlight : .pending
        attempts = 0
        nextAttemptAtMs = event.acceptedAtMs
        createdAtMs = event.acceptedAtMs
        updatedAtMs = event.acceptedAtMs
    }
}
