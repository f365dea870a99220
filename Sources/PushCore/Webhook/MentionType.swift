/// Who a message mentions (Sendbird `mention_type`).
public enum MentionType: Sendable, Hashable, CustomStringConvertible {
    /// Only the users listed in `mentioned_users` (Sendbird's default).
    case users
    /// Everybody in the channel.
    case channel
    /// A value this version does not know; treated like `users`.
    case unknown(String)

    public init(rawValue: String) {
        switch rawValue.lowercased() {
        case "users", "": self = .users
        case "channel": self = .channel
        default: self = .unknown(rawValue)
        }
    }

    public var rawValue: String {
        switch self {
        case .users: "users"
        case .channel: "channel"
        case .unknown(let raw): raw
        }
    }

    public var description: String { rawValue }
}
