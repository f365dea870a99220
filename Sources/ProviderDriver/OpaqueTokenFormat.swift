/// Tokens of a provider that documents no format (FCM's, HMS's): the relay checks what a path
/// can carry and what the tokens seen are made of (letters, digits and a few punctuation marks),
/// and stores the token as given: unlike APNs tokens, these are case-sensitive.
public struct OpaqueTokenFormat: DeviceTokenFormat {
    public let lengths: ClosedRange<Int>
    /// Allowed besides ASCII letters and digits.
    public let punctuation: [UInt8]

    public init(lengths: ClosedRange<Int>, punctuation: String) {
        self.lengths = lengths
        self.punctuation = Array(punctuation.utf8)
    }

    public func normalise(_ text: String) -> Result<String, TokenFormatProblem> {
        guard lengths.contains(text.utf8.count) else {
            return .failure(
                TokenFormatProblem("must be \(lengths.lowerBound) to \(lengths.upperBound) characters (got \(text.utf8.count))"))
        }
        guard text.utf8.allSatisfy(allows) else {
            let marks = punctuation.map { String(UnicodeScalar($0)) }.joined(separator: " ")
            return .failure(TokenFormatProblem("must contain only letters, digits and \(marks)"))
        }
        return .success(text)
    }

    private func allows(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        default: punctuation.contains(byte)
        }
    }
}
