import Foundation

/// A UUID as the canonical lowercase 8-4-4-4-12 text: how apns-ids go on the wire, into the
/// store and into logs. Written directly, without `uuidString` (snprintf) and `lowercased()`:
/// both allocate, and the store writes one per push.
public enum UUIDText {
    public static func lowercase(_ id: UUID) -> String {
        let digits: StaticString = "0123456789abcdef"
        return withUnsafeBytes(of: id.uuid) { raw in
            String(unsafeUninitializedCapacity: 36) { out in
                var o = 0
                for i in 0..<16 {
                    if i == 4 || i == 6 || i == 8 || i == 10 {
                        out[o] = UInt8(ascii: "-")
                        o += 1
                    }
                    out[o] = digits.utf8Start[Int(raw[i] >> 4)]
                    out[o + 1] = digits.utf8Start[Int(raw[i] & 0x0F)]
                    o += 2
                }
                return o
            }
        }
    }

    /// The UUID `text` spells (8-4-4-4-12 hex digits, either case), as `UUID(uuidString:)`
    /// reads it, or nil. Without `sscanf`, which Foundation's parser goes through: the claim
    /// reads an apns-id back for every delivery, and it was a tenth of the claim's CPU.
    public static func parse(_ text: String) -> UUID? {
        var text = text
        return text.withUTF8 { bytes -> UUID? in
            guard bytes.count == 36 else { return nil }
            var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            let parsed = withUnsafeMutableBytes(of: &uuid) { out -> Bool in
                var i = 0
                for n in 0..<16 {
                    if n == 4 || n == 6 || n == 8 || n == 10 {
                        guard bytes[i] == UInt8(ascii: "-") else { return false }
                        i += 1
                    }
                    guard let high = hexValue(bytes[i]), let low = hexValue(bytes[i + 1]) else { return false }
                    out[n] = high << 4 | low
                    i += 2
                }
                return true
            }
            return parsed ? UUID(uuid: uuid) : nil
        }
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
