/// `sendbird.push_tracking_id`: names one message's push to one recipient, the same on every
/// device and every retry (it is in the stored payload), so the device can say it got it
/// (`POST /v3/sdk/push_delivery`). `<message_id>-<16 hex digits>`: the message id finds the
/// deliveries by index, the digits (FNV-1a of the recipient's id) tell recipients apart without
/// naming them.
public struct PushTrackingID: Sendable, Hashable, CustomStringConvertible {
    public let messageID: Int64
    public let recipientHash: UInt64

    public init(messageID: Int64, recipient: String) {
        self.messageID = messageID
        recipientHash = Self.hash(recipient)
    }

    /// Parses what a device sends back; nil for anything this relay did not write.
    public init?(_ text: String) {
        guard text.utf8.count <= 40, let dash = text.lastIndex(of: "-") else { return nil }
        let digits = text[text.index(after: dash)...]
        guard digits.utf8.count == 16, let hash = UInt64(digits, radix: 16), digits.allSatisfy(\.isHexDigit),
            let message = Int64(text[..<dash])
        else { return nil }
        messageID = message
        recipientHash = hash
    }

    public var description: String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(40)
        write(into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The text's bytes appended to `out` (ASCII only: it needs no JSON escaping).
    func write(into out: inout [UInt8]) {
        out.append(contentsOf: String(messageID).utf8)
        out.append(UInt8(ascii: "-"))
        for shift in stride(from: 60, through: 0, by: -4) {
            let nibble = UInt8((recipientHash >> UInt64(shift)) & 0xF)
            out.append(nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10)
        }
    }

    /// Whether this id was written for `recipient`.
    public func names(_ recipient: String) -> Bool { Self.hash(recipient) == recipientHash }

    /// FNV-1a, 64 bits: stable across builds and platforms (Swift's `Hasher` is seeded per process).
    static func hash(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x100_0000_01b3
        }
        return hash
    }
}
