import Hummingbird
import LogRedaction
import PushCore
import ProviderDriver
import PushStore
import StoreContract
import UUIDText

/// JSON bodies of the delivery log API. Device tokens are redacted (`Redaction`).
struct DeliveryLogBody: ResponseEncodable {
    var message_id: Int64
    /// For a notification's push (its message id is the notification's id negated).
    var notification_id: Int64?
    var user_id: String
    /// `push`, a skip reason code, or nil when the relay has no record of the event.
    var decision: String?
    var accepted_at: Int64?
    var deliveries: [DeliveryBody]

    init(_ log: MessageDeliveryLog) {
        message_id = log.messageID
        notification_id = NotificationPayload.notificationID(ofMessage: log.messageID)
        user_id = log.userID
        decision = log.decision?.code
        accepted_at = log.acceptedAtMs
        deliveries = log.deliveries.map(DeliveryBody.init)
    }
}

struct DeliveryListBody: ResponseEncodable {
    var deliveries: [DeliveryBody]
}

/// `GET /v3/users/{user_id}/push/skips`: the user's recent messages the policy did not push.
struct SkipListBody: ResponseEncodable {
    var skips: [SkipBody]
}

struct SkipBody: Encodable {
    var message_id: Int64
    var notification_id: Int64?
    /// The skip reason's code, as `decision` in the message's log.
    var decision: String
    var accepted_at: Int64

    init(_ skip: SkippedMessage) {
        message_id = skip.messageID
        notification_id = NotificationPayload.notificationID(ofMessage: skip.messageID)
        decision = skip.decision.code
        accepted_at = skip.atMs
    }
}

struct DeliveryBody: Encodable {
    var message_id: Int64
    var notification_id: Int64?
    var user_id: String
    var device_token: String
    var state: String
    /// The relay's id for this push (every provider's): the `apns-id` of an APNs push.
    var push_id: String
    /// APNs pushes only: the same as `push_id`, under its first name (kept for clients written
    /// against it). An FCM or HMS push has no apns-id.
    var apns_id: String?
    /// The APNs push type, or `fcm`, `hms`.
    var push_type: String
    /// APNs pushes only: the apns-priority it was sent with (FCM and HMS pushes carry their own
    /// urgency in the message, not this).
    var priority: Int?
    var attempts: Int
    var last_status: Int?
    var last_reason: String?
    var sent_at: Int64?
    var expires_at: Int64
    var next_attempt_at: Int64?
    var created_at: Int64
    /// When the device said it got it (`POST /v3/sdk/push_delivery`); nil until then.
    var acknowledged_at: Int64?
    /// When the user opened it (`POST /v3/sdk/push_click`, or `push_delivery` with
    /// `event_type: CLICKED`); nil until then.
    var clicked_at: Int64?
    /// `apns`, `fcm` or `hms`.
    var provider: String
    /// The provider's id for the sent message, once sent: FCM's message name
    /// (`projects/{project}/messages/{id}`), HMS's `requestId`; absent for APNs, whose id is `push_id`.
    var provider_message_id: String?
    /// FCM's message name under its first name (FCM pushes only).
    var fcm_message_name: String?
    /// `true` for a test push (`POST /v3/push/test`, `push-relay test-push`); absent otherwise.
    var test: Bool?
    var attempt_log: [AttemptBody]

    init(_ logged: LoggedDelivery) {
        let d = logged.delivery
        message_id = d.messageID
        notification_id = NotificationPayload.notificationID(ofMessage: d.messageID)
        user_id = d.userID
        device_token = Redaction.redact(d.deviceToken)
        state = d.state.rawValue
        push_id = UUIDText.lowercase(d.pushID)
        let fields = ProviderCatalog.installed.description(of: d.provider)?.logFields ?? DeliveryLogFields()
        let namedByPushID = fields.pushIDIsProviderID
        apns_id = namedByPushID ? push_id : nil
        push_type = d.pushType
        priority = namedByPushID ? d.priority : nil
        attempts = d.attempts
        last_status = d.lastStatus
        last_reason = d.lastReason
        sent_at = d.sentAtMs
        expires_at = d.expiresAtMs
        next_attempt_at = d.state.isFinal ? nil : d.nextAttemptAtMs
        created_at = d.createdAtMs
        acknowledged_at = logged.acknowledgedAtMs
        clicked_at = logged.clickedAtMs
        provider = d.provider.rawValue
        provider_message_id = logged.providerMessageID
        fcm_message_name = fields.messageName ? logged.providerMessageID : nil
        test = logged.isTest ? true : nil
        attempt_log = logged.attempts.map { AttemptBody($0, namedByPushID: namedByPushID) }
    }
}

struct AttemptBody: Encodable {
    var at: Int64
    var status: Int?
    var reason: String?
    var error: String?
    var push_id: String
    /// APNs pushes only, as the delivery's.
    var apns_id: String?

    init(_ a: DeliveryAttempt, namedByPushID: Bool) {
        at = a.atMs
        status = a.status
        reason = a.reason
        error = a.error
        push_id = UUIDText.lowercase(a.pushID)
        apns_id = namedByPushID ? push_id : nil
    }
}
