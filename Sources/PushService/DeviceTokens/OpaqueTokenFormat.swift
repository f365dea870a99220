/// What an FCM or HMS token must look like. Neither provider documents a format, so the relay
/// checks what a path can carry and what the tokens seen are made of (letters, digits and a few
/// punctuation marks), and stores the token as given: unlike APNs tokens, these are case-sensitive.
struct OpaqueTokenFormat: Sendable {
    let lengths: ClosedRange<Int>
    /// Allowed besides ASCII letters and digits.
    let punctuation: [UInt8]

    /// FCM registration tokens seen are 140 to 200 characters of `[A-Za-z0-9_-]` with one `:`.
    /// 255: the longest id a path may carry.
    static let fcm = OpaqueTokenFormat(lengths: 20...255, punctuation: Array("_-:.".utf8))
    /// HMS push tokens are long runs of letters and digits, the newer ones base64 (Huawei changed
    /// their encoding in November 2020 and says their length varies).
    static let hms = OpaqueTokenFormat(lengths: 20...255, punctuation: Array("_-:.+/=".utf8))

    func normalise(_ text: String) -> Result<String, Problem> {
        guard lengths.contains(text.utf8.count) else { return .failure(Problem(format: self, length: text.utf8.count)) }
        guard text.utf8.allSatisfy(allows) else { return .failure(Problem(format: self, length: nil)) }
        return .success(text)
    }

    private func allows(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        default: punctuation.contains(byte)
        }
    }

    struct Problem: Error, CustomStringConvertible {
        let format: OpaqueTokenFormat
        /// The length, when that is what is wrong; nil for a character not allowed.
        let length: Int?

        var description: String {
            if let length {
                return "must be \(format.lengths.lowerBound) to \(format.lengths.upperBound) characters (got \(length))"
            }
            let marks = format.punctuation.map { String(UnicodeScalar($0)) }.joined(separator: " ")
            return "must contain only letters, digits and \(marks)"
        }
    }
}
