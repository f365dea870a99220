/// The sender's per-message push choice (Sendbird `push_notification_delivery_option`).
public enum PushDeliveryOption: Sendable, Hashable, CustomStringConvertible {
    /// Each recipient's own preferences decide.
    case `default`
    /// No push for this message, whatever the preferences.
    case suppress
    /// Push even where the recipient's trigger options, do-not-disturb or snooze would hold it
    /// back (undocumented by Sendbird; see `RecipientPolicy` for exactly what it bypasses).
    case force
    /// A value this version does not know; treated like `default`.
    case unknown(String)

    public init(rawValue: String) {
        switch rawValue.lowercased() {
        case "default", "": self = .default
        case "suppress": self = .suppress
        case "force": self = .force
        default: self = .unknown(rawValue)
        }
    }

    public var rawValue: String {
        switch self {
        case .default: "default"
        case .suppress: "suppress"
        case .force: "force"
        case .unknown(let raw): raw
        }
    }

    public var description: String { rawValue }
}
