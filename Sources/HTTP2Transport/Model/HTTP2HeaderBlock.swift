/// Request header fields laid out once in one buffer: names and values back to back, and where
/// each lies. The sending task builds it (many run at once); the connection's thread (one per
/// connection, the client's serial part) only points nghttp2 at it.
package struct HTTP2HeaderBlock: Sendable {
    package struct Field: Sendable {
        let name: Int
        let nameLength: Int
        let value: Int
        let valueLength: Int
        /// Sent as an HPACK never-indexed literal (tokens, per-request ids).
        let sensitive: Bool
    }

    private(set) var bytes: [UInt8] = []
    private(set) var fields: [Field] = []

    package init() {
        bytes.reserveCapacity(256)
        fields.reserveCapacity(8)
    }

    package mutating func add(_ name: String, _ value: String, sensitive: Bool = false) {
        let name0 = bytes.count
        append(name)
        let value0 = bytes.count
        append(value)
        fields.append(
            Field(name: name0, nameLength: value0 - name0, value: value0, valueLength: bytes.count - value0, sensitive: sensitive))
    }

    private mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// The value of the first field named `name`.
    package func value(of name: String) -> String? {
        for field in fields where bytes[field.name..<field.name + field.nameLength].elementsEqual(name.utf8) {
            return String(decoding: bytes[field.value..<field.value + field.valueLength], as: UTF8.self)
        }
        return nil
    }
}
