/// A member's membership state in the channel (Sendbird `state`).
public enum MemberState: Sendable, Hashable, CustomStringConvertible {
    case joined
    case invited
    case unknown(String)

    public init(rawValue: String) {
        switch rawValue.lowercased() {
        case "joined": self = .joined
        case "invited": self = .invited
        default: self = .unknown(rawValue)
        }
    }

    public var rawValue: String {
        switch self {
        case .joined: "joined"
        case .invited: "invited"
        case .unknown(let raw): raw
        }
    }

    public var description: String { rawValue }
}
