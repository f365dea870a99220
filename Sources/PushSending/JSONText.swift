/// JSON text the senders write around a stored payload (a token, a payload as a JSON string):
/// strings escaped as RFC 8259 asks, nothing parsed.
public enum JSONText {
    /// Appends `text` as a JSON string literal, quotes included.
    public static func appendString(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in text.utf8 { appendEscaped(byte, to: &out) }
        out.append(UInt8(ascii: "\""))
    }

    /// Appends the bytes of a JSON text as one JSON string literal (a payload sent as a string,
    /// as HMS's `message.data` is).
    public static func appendString(bytes: some Sequence<UInt8>, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in bytes { appendEscaped(byte, to: &out) }
        out.append(UInt8(ascii: "\""))
    }

    private static func appendEscaped(_ byte: UInt8, to out: inout [UInt8]) {
        switch byte {
        case UInt8(ascii: "\""): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
        case UInt8(ascii: "\\"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
        case 0x0A: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
        case 0x0D: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
        case 0x09: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
        case ..<0x20:
            out.append(contentsOf: Array("\\u00".utf8))
            out.append(hexDigits[Int(byte >> 4)])
            out.append(hexDigits[Int(byte & 0x0f)])
        default: out.append(byte)
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}
