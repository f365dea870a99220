import Foundation
import LogRedaction
import PushCore
import StoreContract

/// `users.push_tokens` (`RecipientReadModelSchema`): a JSON array of `[token, registered_at,
/// provider, id]`, with the token's configuration as a fifth element when it has one
/// (`TokenConfigurationSchema`), decoded for every recipient the webhook's cache misses, which at a million
/// users is nearly every one.
///
/// SQLite's `json_group_array(json_array(…))` writes it in one exact shape (no spaces, integers
/// in decimal, strings quoted), and tokens never need escapes. That shape is read by one scan;
/// anything else (escapes, spaces: a hand-edited row) goes through the general JSON parser, which
/// also tells a corrupt value from a valid one. Parsing every value through the general parser
/// built a tree per user and was a quarter of a cache miss's CPU (`pipeline-bench`).
enum ReadModelTokens {
    /// Oldest registration first (ties by id, as `device_tokens_on_user` orders them), of every
    /// provider: the planner leaves out those the app has no route to. A provider name no driver
    /// could have (`PushProvider(rawValue:)`) is left out.
    static func decode(_ text: String) throws -> [DeviceToken] {
        guard text != "[]" else { return [] }
        var tokens = try scan(text) ?? parse(text)
        if tokens.count > 1 {
            tokens.sort { ($0.registeredAtMs, $0.id) < ($1.registeredAtMs, $1.id) }
        }
        return tokens.compactMap { entry in
            PushProvider(rawValue: entry.provider).map {
                DeviceToken(token: entry.token, registeredAtMs: entry.registeredAtMs, provider: $0, configuration: entry.configuration)
            }
        }
    }

    struct Entry: Equatable {
        var token: String
        var registeredAtMs: Int64
        var provider: String
        var id: Int64
        var configuration: String? = nil
    }

    /// The exact shape SQLite writes, or nil for anything else.
    static func scan(_ text: String) -> [Entry]? {
        var text = text
        return text.withUTF8 { bytes -> [Entry]? in
            var i = 0
            let end = bytes.count
            func take(_ byte: UInt8) -> Bool {
                guard i < end, bytes[i] == byte else { return false }
                i += 1
                return true
            }
            func string() -> String? {
                guard take(UInt8(ascii: "\"")) else { return nil }
                let start = i
                while i < end, bytes[i] != UInt8(ascii: "\"") {
                    // Escapes and control characters: the general parser's business.
                    guard bytes[i] != UInt8(ascii: "\\"), bytes[i] >= 0x20 else { return nil }
                    i += 1
                }
                guard i < end else { return nil }
                let value = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self)
                i += 1
                return value
            }
            func integer() -> Int64? {
                let negative = take(UInt8(ascii: "-"))
                let start = i
                var value: Int64 = 0
                while i < end, bytes[i] >= UInt8(ascii: "0"), bytes[i] <= UInt8(ascii: "9") {
                    let (times10, o1) = value.multipliedReportingOverflow(by: 10)
                    let (sum, o2) = times10.addingReportingOverflow(Int64(bytes[i] - UInt8(ascii: "0")))
                    guard !o1, !o2 else { return nil }
                    value = sum
                    i += 1
                }
                guard i > start else { return nil }
                return negative ? -value : value
            }
            guard take(UInt8(ascii: "[")) else { return nil }
            var entries: [Entry] = []
            repeat {
                guard take(UInt8(ascii: "[")), let token = string(), take(UInt8(ascii: ",")), let registeredAt = integer(),
                    take(UInt8(ascii: ",")), let provider = string(), take(UInt8(ascii: ",")), let id = integer()
                else { return nil }
                var configuration: String?
                if take(UInt8(ascii: ",")) {
                    guard let name = string() else { return nil }
                    configuration = name
                }
                guard take(UInt8(ascii: "]")) else { return nil }
                entries.append(
                    Entry(token: token, registeredAtMs: registeredAt, provider: provider, id: id, configuration: configuration))
            } while take(UInt8(ascii: ","))
            guard take(UInt8(ascii: "]")), i == end else { return nil }
            return entries
        }
    }

    /// Any valid JSON of the same meaning, through the general parser.
    static func parse(_ text: String) throws -> [Entry] {
        // Redacted: the error may be logged, and the column holds device tokens.
        let corrupt = PushStoreError.corruptValue(table: "users", column: "push_tokens", value: Redaction.redact(text))
        guard let values = (try? JSONValue.parse(Data(text.utf8)))?.arrayValue else { throw corrupt }
        return try values.map { value in
            guard let fields = value.arrayValue, fields.count == 4 || fields.count == 5, case .string(let token) = fields[0],
                case .int(let registeredAt) = fields[1], case .string(let provider) = fields[2], case .int(let id) = fields[3]
            else { throw corrupt }
            var configuration: String?
            if fields.count == 5 {
                guard case .string(let name) = fields[4] else { throw corrupt }
                configuration = name
            }
            return Entry(token: token, registeredAtMs: registeredAt, provider: provider, id: id, configuration: configuration)
        }
    }
}
