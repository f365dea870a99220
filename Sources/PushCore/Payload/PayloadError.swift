/// Why no payload could be built for a recipient.
public enum PayloadError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Even with the message text cut to "…" the payload needs `minimumBytes`, over `limit`.
    /// Everything else in it (names, translations, template text) is kept on purpose.
    case tooLarge(minimumBytes: Int, limit: Int)

    public var description: String {
        switch self {
        case .tooLarge(let minimum, let limit):
            "push payload needs at least \(minimum) bytes with the message text removed; the limit is \(limit)"
        }
    }
}
