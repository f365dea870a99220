/// What an HMS Push Kit token must look like. Huawei documents no format and says its length
/// varies (its encoding changed in November 2020); the tokens seen are long runs of letters and
/// digits, the newer ones base64. The relay accepts 20 to 255 characters (255: the longest id a
/// path may carry) of letters, digits and `_ - : . + / =`, and stores it as given (case-sensitive).
enum HMSTokenFormat {
    static let lengths = 20...255

    static func normalise(_ text: String) -> Result<String, Problem> {
        guard lengths.contains(text.utf8.count) else { return .failure(.length(text.utf8.count)) }
        guard text.utf8.allSatisfy({ $0.isHMSTokenCharacter }) else { return .failure(.characters) }
        return .success(text)
    }

    enum Problem: Error, CustomStringConvertible {
        case length(Int)
        case characters

        var description: String {
            switch self {
            case .length(let count): "must be \(lengths.lowerBound) to \(lengths.upperBound) characters (got \(count))"
            case .characters: "must contain only letters, digits and _ - : . + / ="
            }
        }
    }
}

extension UInt8 {
    fileprivate var isHMSTokenCharacter: Bool {
        switch self {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        case UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: ":"), UInt8(ascii: "."), UInt8(ascii: "+"), UInt8(ascii: "/"),
            UInt8(ascii: "="):
            true
        default: false
        }
    }
}
