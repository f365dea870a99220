import Foundation
import HTTP2Transport

/// APNs' answer to one request.
public struct APNsResponse: Sendable, Hashable {
    /// HTTP status (200 on success).
    public var status: Int
    /// The `apns-id` APNs echoed (or generated).
    public var apnsID: UUID?
    /// `apns-unique-id`: what finds the push in Apple's Push Notifications Console (APNs sends it
    /// in its development environment only).
    public var uniqueID: String?
    /// Why APNs rejected the request; nil on success.
    public var reason: APNsReason?
    /// For 410: when APNs learned the token stopped being valid for the topic.
    public var timestamp: Date?
    /// The `retry-after` header, when APNs sent one.
    public var retryAfter: Duration?

    public init(
        status: Int, apnsID: UUID? = nil, reason: APNsReason? = nil, timestamp: Date? = nil,
        retryAfter: Duration? = nil
    ) {
        self.status = status
        self.apnsID = apnsID
        self.reason = reason
        self.timestamp = timestamp
        self.retryAfter = retryAfter
    }

    /// APNs' answer as the transport received it: status, `apns-id`, `retry-after`, and the JSON
    /// error body's `reason` and `timestamp`. A 200's body is not read: APNs sends none, and
    /// anything a proxy adds there says nothing about the push.
    init(_ answer: HTTP2Response) {
        self.init(status: answer.status, apnsID: answer.requestID.flatMap(UUID.init(uuidString:)), retryAfter: answer.retryAfter)
        uniqueID = answer.providerID
        if answer.status != 200, !answer.body.isEmpty,
            let object = try? JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any]
        {
            if let reason = object["reason"] as? String { self.reason = APNsReason(rawValue: reason) }
            if let ms = object["timestamp"] as? NSNumber {
                timestamp = Date(timeIntervalSince1970: ms.doubleValue / 1000)
            }
        }
    }

    /// What the caller should do about this answer.
    public var outcome: APNsOutcome { APNsOutcome(classifying: self) }
}

/// The three-way contract (plus success) a delivery pipeline needs from a response: send again
/// later, give up, or forget the device token. Classification follows Apple's "don't retry"
/// list and retry rules (see reference B3).
public enum APNsOutcome: Sendable, Hashable {
    case delivered
    /// The device token is dead for this topic: remove it. For 410 `unregisteredAt` is APNs'
    /// timestamp; remove the token only if it was registered before that moment.
    case tokenInvalid(APNsReason, unregisteredAt: Date?)
    /// Sending the same request again cannot succeed (configuration or request error).
    case permanentFailure(APNsReason?)
    /// Temporary: try again after `after` (from Retry-After, or a suggested minimum).
    case retryable(APNsReason?, after: Duration)

    init(classifying r: APNsResponse) {
        switch (r.status, r.reason) {
        case (200, _):
            self = .delivered
        case (410, let reason):
            self = .tokenInvalid(reason ?? .unregistered, unregisteredAt: r.timestamp)
        // A broadcast's channel that APNs does not know is as dead as a device's token.
        case (400, .badDeviceToken?), (400, .deviceTokenNotForTopic?), (400, .channelNotRegistered?):
            self = .tokenInvalid(r.reason!, unregisteredAt: nil)
        case (429, let reason):
            let fallback: Duration = reason == .tooManyProviderTokenUpdates ? .seconds(1) : .seconds(5)
            self = .retryable(reason, after: r.retryAfter ?? fallback)
        case (403, .expiredProviderToken?):
            // The client already minted a new token and retried once; another try later is sound.
            self = .retryable(r.reason, after: r.retryAfter ?? .seconds(1))
        case (400, .idleTimeout?):
            self = .retryable(r.reason, after: .zero)
        case (500...599, let reason):
            self = .retryable(reason, after: r.retryAfter ?? .seconds(1))
        default:
            self = .permanentFailure(r.reason)
        }
    }
}
