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
}
