import Foundation

/// Writes a `JSONValue` as compact UTF-8 JSON with object keys sorted, so equal values give
/// equal bytes (stable payload sizes, diff-able delivery logs).
///
/// Escaping: `"` and `\` and every control character below U+0020 are escaped; everything else,
/// including emoji and right-to-left text, is written as raw UTF-8 (APNs counts bytes, and
/// `\uXXXX` would cost up to 12 bytes per character). `/` is not escaped. Swift strings cannot hold
/// lone surrogates, so the output is always valid UTF-8.
public enum JSONWriter {
    public static func data(_ value: JSONValue) -> Data {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(1024)
        write(value, into: &bytes)
        return Data(bytes)
    }

    public static func string(_ value: JSONValue) -> String {
        String(decoding: data(value), as: UTF8.self)
    }

    static func write(_ value: JSONValue, into out: inout [UInt8]) {
        switch value {
        case .null:
            out.append(contentsOf: "null".utf8)
        case .bool(let flag):
            out.append(contentsOf: (flag ? "true" : "false").utf8)
        case .int(let number):
            out.append(contentsOf: String(number).utf8)
        case .double(let number):
            // JSON has no NaN/Infinity; null is the conventional stand-in.
            out.append(contentsOf: (number.isFinite ? String(number) : "null").utf8)
        case .string(let text):
            writeString(text, into: &out)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                write(item, into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (index, key) in members.keys.sorted().enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                writeString(key, into: &out)
                out.append(UInt8(ascii: ":"))
                write(members[key]!, into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// `,"key":value` (without the comma when `first`): one member of an object written by hand,
    /// keys in the order the caller keeps sorted (the payload skeleton's parts).
    static func writeMember(_ key: String, _ value: JSONValue, first: Bool = false, into out: inout [UInt8]) {
        if !first { out.append(UInt8(ascii: ",")) }
        writeString(key, into: &out)
        out.append(UInt8(ascii: ":"))
        write(value, into: &out)
    }

    static func writeString(_ text: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { bytes in
            // Copy runs of bytes that need no escaping in one go; most strings are one run.
            var runStart = 0
            for index in bytes.indices {
                let byte = bytes[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                runStart = index + 1
                switch byte {
                case UInt8(ascii: "\""): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
                case UInt8(ascii: "\\"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
                case 0x0A: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
                case 0x0D: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
                case 0x09: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
                case 0x08: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
                case 0x0C: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
                default:
                    out.append(contentsOf: "\\u00".utf8)
                    out.append(hexDigit(byte >> 4))
                    out.append(hexDigit(byte & 0x0F))
                }
            }
            // Multi-byte UTF-8 sequences never contain bytes below 0x80, so runs never split one.
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
        }
        out.append(UInt8(ascii: "\""))
    }

    /// How many bytes `writeString` writes for `text`, without its quotes: the payload fitter
    /// sizes candidates with it instead of writing them.
    static func escapedByteCount(_ text: some StringProtocol) -> Int {
        var count = 0
        for byte in text.utf8 { count += escapedByteCount(byte) }
        return count
    }

    /// Bytes `writeString` writes for one UTF-8 byte (kept next to it so the two agree).
    @inline(__always)
    static func escapedByteCount(_ byte: UInt8) -> Int {
        if byte >= 0x20 { return byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") ? 2 : 1 }
        switch byte {
        case 0x0A, 0x0D, 0x09, 0x08, 0x0C: return 2
        default: return 6
        }
    }

    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }
}
