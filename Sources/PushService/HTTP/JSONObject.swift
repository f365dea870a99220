import Foundation
import PushCore

/// A JSON object read field by field. `null` counts as absent. Each accessor throws the
/// `APIError` Sendbird would give, naming the field by its full path (`dnd_schedules[0].day_of_week`).
/// Bodies are parsed with PushCore's `JSONParser` (the webhook's too), which keeps what the
/// client actually sent (a boolean is not a number, an integer is not a string), so each wrong
/// type gets Sendbird's matching error code.
struct JSONObject: Sendable {
    let fields: [String: JSONValue]
    /// Where this object sits in the body, "" for the top level.
    let path: String

    /// The kinds a field can be expected to have, for error messages.
    enum Kind: Sendable {
        case null, bool, integer, number, string, array, object

        var phrase: String {
            switch self {
            case .null: "null"
            case .bool: "a boolean"
            case .integer: "an integer"
            case .number: "a number"
            case .string: "a string"
            case .array: "a list"
            case .object: "a JSON object"
            }
        }
    }

    /// Parses a request body that must be a JSON object. An empty body is an empty object.
    static func parse(_ data: Data) throws(APIError) -> JSONObject {
        if data.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
            return JSONObject(fields: [:], path: "")
        }
        let value: JSONValue
        do {
            value = try JSONValue.parse(data)
        } catch {
            throw .invalidJSON("not valid JSON")
        }
        guard case .object(let fields) = value else { throw .invalidJSON("the body must be a JSON object") }
        return JSONObject(fields: fields, path: "")
    }

    func name(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    func contains(_ key: String) -> Bool {
        if let value = fields[key], value != .null { return true }
        return false
    }

    func string(_ key: String) throws(APIError) -> String? {
        switch fields[key] {
        case nil, .null?: return nil
        case .string(let value)?: return value
        default: throw .wrongType(name(key), expected: .string)
        }
    }

    func bool(_ key: String) throws(APIError) -> Bool? {
        switch fields[key] {
        case nil, .null?: return nil
        case .bool(let value)?: return value
        default: throw .wrongType(name(key), expected: .bool)
        }
    }

    /// An integer. `allowNumericString` accepts `"123"` too, for fields some Sendbird SDK models
    /// type as strings (`snooze_start_ts`).
    func integer(_ key: String, allowNumericString: Bool = false) throws(APIError) -> Int64? {
        switch fields[key] {
        case nil, .null?: return nil
        case .string(let text)? where allowNumericString:
            guard let value = Int64(text) else { throw .wrongType(name(key), expected: .integer) }
            return value
        case let value?:
            guard let integer = value.exactInteger else { throw .wrongType(name(key), expected: .integer) }
            return integer
        }
    }

    func array(_ key: String) throws(APIError) -> [JSONValue]? {
        switch fields[key] {
        case nil, .null?: return nil
        case .array(let value)?: return value
        default: throw .wrongType(name(key), expected: .array)
        }
    }

    func object(_ key: String) throws(APIError) -> JSONObject? {
        switch fields[key] {
        case nil, .null?: return nil
        case .object(let value)?: return JSONObject(fields: value, path: name(key))
        default: throw .wrongType(name(key), expected: .object)
        }
    }

    /// An integer within `range`; out of range is 400111 naming the range.
    func integer(_ key: String, in range: ClosedRange<Int64>) throws(APIError) -> Int? {
        guard let value = try integer(key) else { return nil }
        guard range.contains(value) else {
            throw .invalidValue(name(key), "must be between \(range.lowerBound) and \(range.upperBound)")
        }
        return Int(value)
    }

    /// One of a fixed set of strings; anything else is 400111 listing the allowed values.
    func choice<T>(_ key: String, _ parse: (String) -> T?, allowed: [String]) throws(APIError) -> T? {
        guard let raw = try string(key) else { return nil }
        guard let value = parse(raw) else {
            throw .invalidValue(name(key), "must be one of \(allowed.map { "\"\($0)\"" }.joined(separator: ", ")) (got \"\(raw)\")")
        }
        return value
    }

    /// Elements of an array field that must all be objects.
    func objects(_ key: String) throws(APIError) -> [JSONObject]? {
        guard let items = try array(key) else { return nil }
        var result: [JSONObject] = []
        for (index, item) in items.enumerated() {
            guard case .object(let fields) = item else {
                throw .wrongType("\(name(key))[\(index)]", expected: .object)
            }
            result.append(JSONObject(fields: fields, path: "\(name(key))[\(index)]"))
        }
        return result
    }
}

extension JSONValue {
    /// An integer, also when written `1.0` or `1e2` (Foundation's decoder, which parsed REST
    /// bodies before PushCore's parser did, accepted those); nil for a fraction or a non-number.
    var exactInteger: Int64? {
        switch self {
        case .int(let value): value
        case .double(let value): value.isFinite && value.rounded() == value ? Int64(exactly: value) : nil
        default: nil
        }
    }
}
