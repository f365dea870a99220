/// The webhook body's top-level `"app_id"` string, found without parsing the body: one pass over
/// the bytes that skips nested values and strings, allocating nothing but the result.
///
/// Why: a webhook on the path without an app names its app only in the body, which must not be
/// parsed before its signature is checked, and trying every configured app's key cost one HMAC
/// per app. With this, an unsigned body costs one pass and at most one HMAC. The answer is only a
/// hint for which key to try: the parsed envelope must name the same app (bytes) before anything
/// is done, so a body this reads differently from the parser (an escaped key, a repeated one) is
/// refused, never mistaken.
public enum WebhookAppPeek {
    /// Longest app id read; past it the body names no app this relay could have.
    public static let maximumLength = IdentifierRules.maximumBytes

    public static func appID(in body: UnsafeRawBufferPointer) -> String? {
        var scanner = Scanner(bytes: body)
        return scanner.topLevelAppID()
    }

    private struct Scanner {
        let bytes: UnsafeRawBufferPointer
        var index = 0

        mutating func topLevelAppID() -> String? {
            skipSpace()
            guard next() == UInt8(ascii: "{") else { return nil }
            while true {
                skipSpace()
                guard peek() == UInt8(ascii: "\"") else { return nil }
                let keyStart = index + 1
                guard skipString() else { return nil }
                let key = bytes[keyStart..<index - 1]
                skipSpace()
                guard next() == UInt8(ascii: ":") else { return nil }
                skipSpace()
                if key.elementsEqual("app_id".utf8) {
                    guard peek() == UInt8(ascii: "\"") else { return nil }
                    let start = index + 1
                    guard skipString() else { return nil }
                    let value = bytes[start..<index - 1]
                    // Escapes are the parser's business: a value with any is not a hint we trust.
                    guard value.count <= Self.maximumLength, !value.contains(UInt8(ascii: "\\")) else { return nil }
                    return String(decoding: value, as: UTF8.self)
                }
                guard skipValue() else { return nil }
                skipSpace()
                guard next() == UInt8(ascii: ",") else { return nil }
            }
        }

        private static let maximumLength = WebhookAppPeek.maximumLength

        func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func next() -> UInt8? {
            guard index < bytes.count else { return nil }
            defer { index += 1 }
            return bytes[index]
        }

        mutating func skipSpace() {
            while let byte = peek(), byte == 0x20 || byte == 0x0a || byte == 0x0d || byte == 0x09 { index += 1 }
        }

        /// From the opening quote to just past the closing one.
        mutating func skipString() -> Bool {
            index += 1
            while let byte = next() {
                if byte == UInt8(ascii: "\\") {
                    index += 1
                } else if byte == UInt8(ascii: "\"") {
                    return true
                }
            }
            return false
        }

        /// One value of any kind: strings whole, objects and arrays by their brackets' depth.
        mutating func skipValue() -> Bool {
            var depth = 0
            while let byte = peek() {
                switch byte {
                case UInt8(ascii: "\""):
                    guard skipString() else { return false }
                    if depth == 0 { return true }
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    if depth == 0 { return true }
                    depth -= 1
                    if depth == 0 {
                        index += 1
                        return true
                    }
                case UInt8(ascii: ","):
                    if depth == 0 { return true }
                default:
                    break
                }
                index += 1
            }
            return false
        }
    }
}
