import Foundation

/// Why bytes are not JSON, with the byte offset where parsing stopped.
public struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
    public var offset: Int
    public var reason: String

    public var description: String { "\(reason) at byte \(offset)" }
}

/// A small RFC 8259 parser producing `JSONValue`.
///
/// Written here rather than going through `JSONDecoder`/`JSONSerialization` because webhook
/// bodies need exact 64-bit integers and must tell `true` from `1`, and because trying each
/// type in turn through `Decodable` throws an error per value, which made large member lists
/// slow. It is lenient only where that loses nothing: a lone UTF-16 surrogate escape or invalid
/// UTF-8 becomes U+FFFD and raw control characters inside strings are kept, rather than
/// rejecting a whole event over one odd nickname.
struct JSONParser {
    static let maximumDepth = 512

    private let bytes: [UInt8]
    private var index = 0
    /// Fields of the objects being parsed, innermost last (see `parseObject`).
    private var fields: [(key: String, value: JSONValue)] = []

    static func parse(_ data: Data) throws(JSONParseError) -> JSONValue {
        var parser = JSONParser(bytes: [UInt8](data))
        parser.skipWhitespace()
        let value = try parser.parseValue(depth: 0)
        parser.skipWhitespace()
        guard parser.index == parser.bytes.count else { throw parser.error("unexpected data after the JSON value") }
        return value
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    private func error(_ reason: String) -> JSONParseError {
        JSONParseError(offset: index, reason: reason)
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
            index += 1
        }
    }

    private mutating func expect(_ byte: UInt8, _ what: String) throws(JSONParseError) {
        guard current == byte else { throw error("expected \(what)") }
        index += 1
    }

    private mutating func parseValue(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth < JSONParser.maximumDepth else { throw error("nesting deeper than \(JSONParser.maximumDepth)") }
        guard let byte = current else { throw error("unexpected end of input") }
        switch byte {
        case UInt8(ascii: "{"): return try parseObject(depth: depth)
        case UInt8(ascii: "["): return try parseArray(depth: depth)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try parseLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try parseLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try parseLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw error("unexpected character")
        }
    }

    private mutating func parseLiteral(_ word: String) throws(JSONParseError) {
        let start = index
        for expected in word.utf8 {
            guard current == expected else { throw JSONParseError(offset: start, reason: "invalid literal") }
            index += 1
        }
    }

    private mutating func parseObject(depth: Int) throws(JSONParseError) -> JSONValue {
        index += 1
        var members: [String: JSONValue] = [:]
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        // The fields are gathered first (on a stack shared by nested objects), so the dictionary
        // is made at its final size: growing it key by key rehashed every key at 1, 2, 4 and 8,
        // and a guessed size would hold memory a body of many small objects could multiply.
        let start = fields.count
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else { throw error("expected a string key") }
            let key = try parseString()
            skipWhitespace()
            try expect(UInt8(ascii: ":"), "':'")
            skipWhitespace()
            let value = try parseValue(depth: depth + 1)
            fields.append((key, value))
            skipWhitespace()
            if current == UInt8(ascii: ",") {
                index += 1
                continue
            }
            try expect(UInt8(ascii: "}"), "',' or '}'")
            members.reserveCapacity(fields.count - start)
            // A key given twice keeps its last value.
            for field in fields[start...] { members[field.key] = field.value }
            fields.removeSubrange(start...)
            return .object(members)
        }
    }

    private mutating func parseArray(depth: Int) throws(JSONParseError) -> JSONValue {
        index += 1
        var items: [JSONValue] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            index += 1
            return .array(items)
        }
        while true {
            skipWhitespace()
            items.append(try parseValue(depth: depth + 1))
            skipWhitespace()
            if current == UInt8(ascii: ",") {
                index += 1
                continue
            }
            try expect(UInt8(ascii: "]"), "',' or ']'")
            return .array(items)
        }
    }

    private mutating func parseString() throws(JSONParseError) -> String {
        index += 1  // opening quote
        // Most strings (keys, ids, nicknames) have no escapes: one scan and one copy.
        let start = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return String(decoding: bytes[start..<index - 1], as: UTF8.self)
            }
            if byte == UInt8(ascii: "\\") { break }
            index += 1
        }
        var buffer = Array(bytes[start..<index])
        while true {
            guard let byte = current else { throw error("unterminated string") }
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                return String(decoding: buffer, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard let escaped = current else { throw error("unterminated escape") }
                index += 1
                switch escaped {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): buffer.append(escaped)
                case UInt8(ascii: "b"): buffer.append(0x08)
                case UInt8(ascii: "f"): buffer.append(0x0C)
                case UInt8(ascii: "n"): buffer.append(0x0A)
                case UInt8(ascii: "r"): buffer.append(0x0D)
                case UInt8(ascii: "t"): buffer.append(0x09)
                case UInt8(ascii: "u"): buffer.append(contentsOf: try parseUnicodeEscape())
                default: throw error("invalid escape")
                }
            default:
                buffer.append(byte)
            }
        }
    }

    /// After `\u`: one code unit, or a surrogate pair spelled as two escapes. Lone surrogates
    /// become U+FFFD.
    private mutating func parseUnicodeEscape() throws(JSONParseError) -> [UInt8] {
        let unit = try parseHex4()
        var scalar: Unicode.Scalar?
        if (0xD800...0xDBFF).contains(unit) {
            if index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") {
                let saved = index
                index += 2
                let low = try parseHex4()
                if (0xDC00...0xDFFF).contains(low) {
                    scalar = Unicode.Scalar(0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00))
                } else {
                    index = saved  // not a pair: the second escape is read on its own
                }
            }
        } else {
            scalar = Unicode.Scalar(UInt32(unit))
        }
        return Array(String(Character(scalar ?? "\u{FFFD}")).utf8)
    }

    private mutating func parseHex4() throws(JSONParseError) -> UInt16 {
        guard index + 4 <= bytes.count else { throw error("truncated \\u escape") }
        var value: UInt16 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error("invalid hex digit in \\u escape")
            }
            value = value << 4 | UInt16(digit)
            index += 1
        }
        return value
    }

    private mutating func parseNumber() throws(JSONParseError) -> JSONValue {
        let start = index
        var isInteger = true
        if current == UInt8(ascii: "-") { index += 1 }
        guard skipDigits() > 0 else { throw error("invalid number") }
        if current == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard skipDigits() > 0 else { throw error("invalid number") }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard skipDigits() > 0 else { throw error("invalid number") }
        }
        // Integers of up to 18 digits cannot overflow: summed here without making a String.
        let digitsStart = bytes[start] == UInt8(ascii: "-") ? start + 1 : start
        if isInteger, index - digitsStart <= 18 {
            var value: Int64 = 0
            for byte in bytes[digitsStart..<index] { value = value &* 10 &+ Int64(byte &- UInt8(ascii: "0")) }
            return .int(digitsStart == start ? value : -value)
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if isInteger, let integer = Int64(text) { return .int(integer) }
        guard let double = Double(text) else { throw JSONParseError(offset: start, reason: "invalid number") }
        return .double(double)
    }

    private mutating func skipDigits() -> Int {
        var count = 0
        while let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
            index += 1
            count += 1
        }
        return count
    }
}
