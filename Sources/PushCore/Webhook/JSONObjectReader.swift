/// Reads fields of one JSON object, leniently for optional fields (a wrong type falls back to
/// the default, as Sendbird is inconsistent) and strictly for required ones (a precise
/// `WebhookEventError` naming the dotted path).
struct JSONObjectReader {
    let object: [String: JSONValue]
    /// Path of this object, e.g. `payload` or `members[3]`; empty at the top level.
    let path: String

    init(_ object: [String: JSONValue], path: String = "") {
        self.object = object
        self.path = path
    }

    func fieldPath(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    /// The value for `key`, with JSON `null` treated as absent.
    func value(_ key: String) -> JSONValue? {
        // A small object is searched, not hashed: a member reads ~16 keys of which it usually
        // has 5-15, and comparing short keys is cheaper than hashing the one asked for.
        if object.count <= Self.searchedObjectSize {
            var index = object.startIndex
            while index != object.endIndex {
                if object.keys[index] == key {
                    let value = object.values[index]
                    return value.isNull ? nil : value
                }
                object.formIndex(after: &index)
            }
            return nil
        }
        guard let value = object[key], !value.isNull else { return nil }
        return value
    }

    /// Up to this many fields `value(_:)` compares keys instead of hashing (measured with
    /// `pipeline-bench`'s parse stage).
    static let searchedObjectSize = 12

    // MARK: required

    func requiredString(_ key: String) throws(WebhookEventError) -> String {
        guard let raw = value(key) else { throw .missingField(fieldPath(key)) }
        guard let text = raw.lenientString, !text.isEmpty else {
            throw .invalidField(fieldPath(key), expected: "a non-empty string")
        }
        return text
    }

    /// A required id (`IdentifierRules`): refused, never cut, when too long or with controls.
    func requiredID(_ key: String) throws(WebhookEventError) -> String {
        let text = try requiredString(key)
        if let problem = IdentifierRules.problem(with: text) { throw .invalidField(fieldPath(key), expected: problem) }
        return text
    }

    func requiredInt64(_ key: String) throws(WebhookEventError) -> Int64 {
        guard let raw = value(key) else { throw .missingField(fieldPath(key)) }
        guard let number = raw.lenientInt64 else {
            throw .invalidField(fieldPath(key), expected: "an integer")
        }
        return number
    }

    func requiredObject(_ key: String) throws(WebhookEventError) -> JSONObjectReader {
        guard let raw = value(key) else { throw .missingField(fieldPath(key)) }
        guard let object = raw.objectValue else {
            throw .invalidField(fieldPath(key), expected: "an object")
        }
        return JSONObjectReader(object, path: fieldPath(key))
    }

    // MARK: lenient

    func string(_ key: String, default fallback: String = "") -> String {
        value(key)?.lenientString ?? fallback
    }

    func optionalString(_ key: String) -> String? {
        value(key)?.lenientString
    }

    func int(_ key: String, default fallback: Int = 0) -> Int {
        optionalInt(key) ?? fallback
    }

    func optionalInt(_ key: String) -> Int? {
        guard let number = value(key)?.lenientInt64 else { return nil }
        return Int(exactly: number)
    }

    func int64(_ key: String, default fallback: Int64 = 0) -> Int64 {
        value(key)?.lenientInt64 ?? fallback
    }

    func bool(_ key: String, default fallback: Bool = false) -> Bool {
        optionalBool(key) ?? fallback
    }

    func optionalBool(_ key: String) -> Bool? {
        value(key)?.lenientBool
    }

    func object(_ key: String) -> JSONObjectReader? {
        guard let object = value(key)?.objectValue else { return nil }
        return JSONObjectReader(object, path: fieldPath(key))
    }

    func array(_ key: String) -> [JSONValue]? {
        value(key)?.arrayValue
    }

    /// A string-to-string map such as `translations`; non-string entries are skipped.
    func stringMap(_ key: String) -> [String: String] {
        guard let object = value(key)?.objectValue else { return [:] }
        return object.compactMapValues { $0.lenientString }
    }

    /// Free-form text such as `data`: a string as is, any other JSON re-serialized compactly.
    func text(_ key: String) -> String {
        guard let raw = value(key) else { return "" }
        if case .string(let text) = raw { return text }
        return JSONWriter.string(raw)
    }
}
