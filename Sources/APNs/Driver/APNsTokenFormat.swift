import ProviderDriver

/// What an APNs device token must look like. Apple: "Don't make assumptions about device token
/// size" (32 bytes today, longer in the past and maybe again), so the relay accepts any
/// even-length hex string of 16 to 200 characters (8 to 100 bytes), and stores it lowercase.
public struct APNsTokenFormat: DeviceTokenFormat {
    public static let lengths = 16...200

    public init() {}

    /// The normalised (lowercase) token, or why the text is not one.
    public func normalise(_ text: String) -> Result<String, TokenFormatProblem> {
        let lengths = Self.lengths
        guard lengths.contains(text.utf8.count) else {
            return .failure(
                TokenFormatProblem("must be \(lengths.lowerBound) to \(lengths.upperBound) hex digits (got \(text.utf8.count) characters)"))
        }
        guard text.utf8.count % 2 == 0 else { return .failure(TokenFormatProblem("must have an even number of hex digits")) }
        guard text.utf8.allSatisfy({ $0.isHexDigit }) else { return .failure(TokenFormatProblem("must contain only hex digits 0-9, a-f")) }
        return .success(text.lowercased())
    }
}

extension UInt8 {
    fileprivate var isHexDigit: Bool {
        (0x30...0x39).contains(self) || (0x41...0x46).contains(self) || (0x61...0x66).contains(self)
    }
}
