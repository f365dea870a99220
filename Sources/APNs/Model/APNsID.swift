import Foundation

/// `apns-id` helpers.
public enum APNsID {
    /// A random (version 4) UUID. Foundation's `UUID()` on Linux opens /dev/urandom for every
    /// call; at tens of thousands of pushes per second that is most of the syscalls, so this reads
    /// the system generator (getrandom) directly.
    public static func random() -> UUID {
        var generator = SystemRandomNumberGenerator()
        var bytes = (generator.next() as UInt64, generator.next() as UInt64)
        return withUnsafeMutableBytes(of: &bytes) { raw in
            raw[6] = (raw[6] & 0x0F) | 0x40  // version 4
            raw[8] = (raw[8] & 0x3F) | 0x80  // RFC 4122 variant
            return UUID(uuid: raw.load(as: uuid_t.self))
        }
    }

    /// The canonical lowercase 8-4-4-4-12 form APNs expects, without going through
    /// `uuidString` (snprintf) and `lowercased()`.
    static func lowercaseString(_ id: UUID) -> String {
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
