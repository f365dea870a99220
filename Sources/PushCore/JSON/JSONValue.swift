import Foundation

/// A parsed JSON value. The webhook decoder reads it leniently (Sendbird is inconsistent about
/// types), and the payload builder writes it back byte-exactly with `JSONWriter`.
///
/// Integers are kept apart from doubles so 64-bit ids such as `message_id` stay exact.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])
}

// Lenient readers: each accepts the spellings Sendbird has been seen to send for that type.
extension JSONValue {
    /// A string, or a number/bool rendered as text (ids sometimes arrive as numbers).
    public var lenientString: String? {
        switch self {
        case .string(let value): value
        case .int(let value): String(value)
        case .double(let value): value.isFinite ? String(value) : nil
        case .bool(let value): String(value)
        case .null, .array, .object: nil
        }
    }

    /// An integer, an integral double, or a string holding one (`"238303376"`).
    public var lenientInt64: Int64? {
        switch self {
        case .int(let value):
            return value
        case .double(let value):
            guard value.isFinite, value.rounded() == value, let exact = Int64(exactly: value) else { return nil }
            return exact
        case .string(let text):
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            if let value = Int64(trimmed) { return value }
            if let double = Double(trimmed) { return JSONValue.double(double).lenientInt64 }
            return nil
        case .null, .bool, .array, .object:
            return nil
        }
    }

    /// A bool, 0/1, or `"true"`/`"false"`/`"1"`/`"0"` (`is_hidden` arrives as an int).
    public var lenientBool: Bool? {
        switch self {
        case .bool(let value): value
        case .int(let value): value != 0
        case .double(let value): value != 0
        case .string(let text):
            switch text.lowercased() {
            case "true", "1", "yes": true
            case "false", "0", "no": false
            default: nil
            }
        case .null, .array, .object: nil
        }
    }

    public var objectValue: [String: JSONValue]? {
        if case .object(let value) = self { value } else { nil }
    }

    public var arrayValue: [JSONValue]? {
        if case .array(let value) = self { value } else { nil }
    }

    public var isNull: Bool { self == .null }
}

extension JSONValue {
    /// Parses JSON bytes (any top-level value).
    public static func parse(_ data: Data) throws(JSONParseError) -> JSONValue {
        try JSONParser.parse(data)
    }
}

extension JSONValue {
    /// Whether a NUL character stands in any string of this value, keys included.
    public var containsNUL: Bool {
        switch self {
        case .null, .bool, .int, .double: false
        case .string(let text): text.utf8.contains(0)
        case .array(let items): items.contains { $0.containsNUL }
        case .object(let members): members.contains { $0.key.utf8.contains(0) || $0.value.containsNUL }
        }
    }
}
