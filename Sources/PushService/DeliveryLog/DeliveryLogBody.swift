import Hummingbird
import LogRedaction
import PushStore
import UUIDText

/// JSON bodies of the delivery log API. Device tokens are redacted (`Redaction`).
struct DeliveryLogBody: ResponseEncodable {
    var message_id: Int64
    var user_id: String
    /// `push`, a skip reason code, or nil when the relay has no record of the event.
    var decision: String?
    var accepted_at: Int64?
    var deliveries: [DeliveryBody]

    init(_ log: MessageDeliveryLog) {
        message_id = log.messageID
        user_id = log.userID
        decision = log.decision?.code
        accepted_at = log.acceptedAtMs
        deliveries = log.deliveries.map(DeliveryBody.init)
    }
}

struct DeliveryListBody: ResponseEncodable {
    var deliveries: [DeliveryBody]
}

struct DeliveryBody: Encodable {
    var message_id: Int64
    var user_id: String
    var device_token: String
    var state: String
    var apns_id: String
    var push_type: String
    var priority: Int
    var attempts: Int
    var last_status: Int?
    var last_reason: String?
    var sent_at: Int64?
    var expires_at: Int64
    var next_attempt_at: Int64?
    var created_at: Int64
    /// When the device said it got it (`POST /v3/sdk/push_delivery`); nil until then.
    var acknowledged_at: Int64?
    /// `apns` or `fcm`.
    var provider: String
    /// FCM's name for the sent message (`projects/{project}/messages/{id}`); absent for APNs.
    var fcm_message_name: String?
    var attempt_log: [AttemptBody]

    init(_ logged: LoggedDelivery) {
        let d = logged.delivery
        message_id = d.messageID
        user_id = d.userID
        device_token = Redaction.redact(d.deviceToken)
        state = d.state.rawValue
        apns_id = UUIDText.lowercase(d.apnsID)
        push_type = d.pushType
        priority = d.priority
        attempts = d.attempts
        last_status = d.lastStatus
        last_reason = d.lastReason
        sent_at = d.sentAtMs
        expires_at = d.expiresAtMs
        next_attempt_at = d.state.isFinal ? nil : d.nextAttemptAtMs
        created_at = d.createdAtMs
        acknowledged_at = logged.acknowledgedAtMs
        provider = d.provider.rawValue
        fcm_message_name = logged.messageName
        attempt_log = logged.attempts.map(AttemptBody.init)
    }
}

struct AttemptBody: Encodable {
    var at: Int64
    var status: Int?
    var reason: String?
    var error: String?
    var apns_id: String

    init(_ a: DeliveryAttempt) {
        at = a.atMs
        status = a.status
        reason = a.reason
        error = a.error
        apns_id = UUIDText.lowercase(a.apnsID)
    }
}
