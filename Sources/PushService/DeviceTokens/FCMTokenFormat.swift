/// What an FCM registration token must look like. Google documents no format; the tokens seen
/// are 140 to 200 characters of `[A-Za-z0-9_-]` with one `:`. The relay accepts 20 to 255
/// characters of letters, digits and `_ - : .` (255: the longest id a path may carry), and stores
/// it as given: unlike APNs tokens, FCM tokens are case-sensitive.
enum FCMTokenFormat {
    static let lengths = 20...255

    static func normalise(_ text: String) -> Result<String, Problem> {
        guard lengths.contains(text.utf8.count) else { return .failure(.length(text.utf8.count)) }
        guard text.utf8.allSatisfy({ $0.isFCMTokenCharacter }) else { return .failure(.characters) }
        return .success(text)
    }

    enum Problem: Error, CustomStringConvertible {
        case length(Int)
        case characters

        var description: String {
            switch self {
            case .length(let count): "must be \(lengths.lowerBound) to \(lengths.upperBound) characters (got \(count))"
            case .characters: "must contain only letters, digits and _ - : ."
            }
        }
    }
}

extension UInt8 {
    fileprivate var isFCMTokenCharacter: Bool {
        switch self {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        case UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: ":"), UInt8(ascii: "."): true
        default: false
        }
    }
}
