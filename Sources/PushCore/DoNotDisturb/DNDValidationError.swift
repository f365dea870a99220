/// Why a do-not-disturb setting cannot be stored. The REST layer turns it into a 400.
public enum DNDValidationError: Error, Sendable, Hashable, CustomStringConvertible {
    case outOfRange(field: String, value: Int, allowed: ClosedRange<Int>)
    case unknownTimezone(String)

    public var description: String {
        switch self {
        case .outOfRange(let field, let value, let allowed):
            "\"\(field)\" is \(value); it must be between \(allowed.lowerBound) and \(allowed.upperBound)"
        case .unknownTimezone(let name):
            "\"timezone\" \"\(name)\" is not a known IANA time zone"
        }
    }
}
