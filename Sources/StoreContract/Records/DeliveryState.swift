/// Where a delivery is in its life. `rawValue` is stored in `deliveries.state`; `unknown` keeps
/// values written by a newer version readable.
public enum DeliveryState: Sendable, Hashable, CustomStringConvertible {
    /// Waiting for `next_attempt_at_ms`.
    case pending
    /// Claimed by the dispatcher; a crash leaves it here and `resumeInFlight()` puts it back.
    case inFlight
    case sent
    /// APNs refused it for good (the reason is in `last_reason`).
    case failed
    /// Its expiration passed before APNs accepted it.
    case expired
    /// APNs said the device token is no longer valid.
    case tokenInvalid
    /// Its notification was cancelled before it was sent.
    case cancelled
    case unknown(String)

    public static let allKnown: [DeliveryState] = [.pending, .inFlight, .sent, .failed, .expired, .tokenInvalid, .cancelled]

    public init(rawValue: String) {
        self = Self.allKnown.first { $0.rawValue == rawValue } ?? .unknown(rawValue)
    }

    public var rawValue: String {
        switch self {
        case .pending: "pending"
        case .inFlight: "in_flight"
        case .sent: "sent"
        case .failed: "failed"
        case .expired: "expired"
        case .tokenInvalid: "token_invalid"
        case .cancelled: "cancelled"
        case .unknown(let raw): raw
        }
    }

    /// No further attempt will be made.
    public var isFinal: Bool {
        switch self {
        case .pending, .inFlight: false
        default: true
        }
    }

    public var description: String { rawValue }
}
