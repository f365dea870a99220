/// The recipient policy's verdict for one member and one message.
public enum PushDecision: Sendable, Hashable, CustomStringConvertible {
    case push
    case skip(SkipReason)

    public var shouldPush: Bool { self == .push }

    public var skipReason: SkipReason? {
        if case .skip(let reason) = self { reason } else { nil }
    }

    /// `push`, or the skip reason's code: what the delivery log stores and shows.
    public var code: String {
        switch self {
        case .push: "push"
        case .skip(let reason): reason.rawValue
        }
    }

    /// The decision a stored `code` stands for.
    public init(code: String) {
        self = code == "push" ? .push : .skip(SkipReason(rawValue: code))
    }

    public var description: String { code }
}
