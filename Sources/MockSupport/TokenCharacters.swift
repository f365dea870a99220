/// The form of a device token the mocks take before looking it up: 1 to 4,096 bytes of URL-safe
/// text (letters, digits, `-_:.`), and whatever else a provider's tokens hold (`alsoAllowing`).
package enum TokenCharacters {
    package static func isWellFormed(_ token: String, alsoAllowing extra: String = "") -> Bool {
        guard !token.isEmpty, token.utf8.count <= 4096 else { return false }
        let extra = Set(extra.utf8)
        return token.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: ":"), UInt8(ascii: "."):
                true
            default: extra.contains(byte)
            }
        }
    }
}
