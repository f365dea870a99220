import Foundation
import Hummingbird
import PushCore

/// Ids and limits from a request's path and query, checked one way. Path segments arrive
/// percent-encoded (a channel URL may contain `/`, `?` or spaces) and the router hands them over
/// raw, so every route decodes and checks them here.
enum RequestParameter {
    /// The longest user id or channel URL accepted, in UTF-8 bytes.
    static let maximumBytes = IdentifierRules.maximumBytes

    static func decoded(_ name: String, from context: RelayRequestContext) throws(APIError) -> String {
        guard let raw = context.parameters.get(name) else { throw .missing(name) }
        guard let value = percentDecoded(raw) else {
            throw .invalidValue(name, "is not valid percent-encoding")
        }
        return try checked(name, value)
    }

    /// `raw` with its percent escapes decoded; nil when they are not valid (or not UTF-8). Text
    /// without a `%` is returned as it is: Foundation's decoding went through CFString and was
    /// about 1 % of the relay's CPU on the webhook path, where the app id almost never has one.
    static func percentDecoded(_ raw: String) -> String? {
        raw.utf8.contains(UInt8(ascii: "%")) ? raw.removingPercentEncoding : raw
    }

    /// A user id or channel URL from a query string (Hummingbird has decoded it): the same rules
    /// as in a path.
    static func query(_ name: String, from request: Request) throws(APIError) -> String {
        guard let value = request.uri.queryParameters[Substring(name)], !value.isEmpty else { throw .missing(name) }
        return try checked(name, String(value))
    }

    /// A `limit` query parameter: `default` when absent, else an integer in `range`.
    static func limit(from request: Request, default value: Int, range: ClosedRange<Int>) throws(APIError) -> Int {
        guard let raw = request.uri.queryParameters["limit"] else { return value }
        guard let limit = Int(String(raw)) else { throw .wrongType("limit", expected: .integer) }
        guard range.contains(limit) else { throw .invalidValue("limit", "must be between \(range.lowerBound) and \(range.upperBound)") }
        return limit
    }

    /// `IdentifierRules`, as the API reports them: no store is asked about an id no store could
    /// hold (PostgreSQL refuses a NUL in text outright).
    static func checked(_ name: String, _ value: String) throws(APIError) -> String {
        guard !value.isEmpty, value.utf8.count <= maximumBytes else {
            throw .tooLong(name, maximumBytes: maximumBytes)
        }
        guard !value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw APIError(code: .notAllowedCharacters, message: "Invalid value: \"\(name)\" contains control characters.")
        }
        return value
    }
}
