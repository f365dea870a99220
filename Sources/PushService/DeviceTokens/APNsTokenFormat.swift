/// What an APNs device token must look like. Apple: "Don't make assumptions about device token
/// size" (32 bytes today, longer in the past and maybe again), so the relay accepts any
/// even-length hex string of 16 to 200 characters (8 to 100 bytes), and stores it lowercase.
enum APNsTokenFormat {
    static let lengths = 16...200

    /// The normalised (lowercase) token, or why the text is not one.
    static func normalise(_ text: String) -> Result<String, Problem> {
        guard lengths.contains(text.utf8.count) else { return .failure(.length(text.utf8.count)) }
        guard text.utf8.count % 2 == 0 else { return .failure(.oddLength) }
        guard text.utf8.allSatisfy({ $0.isHexDigit }) else { return .failure(.notHex) }
        return .success(text.lowercased())
    }

    enum Problem: Error, CustomStringConvertible {
        case length(Int)
        case oddLength
        case notHex

        var description: String {
            switch self {
            case .length(let count): "must be \(lengths.lowerBound) to \(lengths.upperBound) hex digits (got \(count) characters)"
            case .oddLength: "must have an even number of hex digits"
            case .notHex: "must contain only hex digits 0-9, a-f"
            }
        }
    }
}

extension UInt8 {
    fileprivate var isHexDigit: Bool {
        (0x30...0x39).contains(self) || (0x41...0x46).contains(self) || (0x61...0x66).contains(self)
    }
}
