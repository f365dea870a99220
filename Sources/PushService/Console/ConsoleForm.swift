import Foundation
import Hummingbird

/// A console form's fields (`application/x-www-form-urlencoded`), from a body of at most `limit`
/// bytes: the forms hold a few short fields, so a larger body is refused unread (413).
struct ConsoleForm: Sendable {
    /// Largest form body: a test push's message (1 KiB of text, percent-encoded up to 9 KiB) and a few ids.
    static let limit = 16 * 1024

    let fields: [String: String]

    init(_ request: Request, limit: Int = ConsoleForm.limit) async throws {
        let body = try await request.collectBody(limit: limit)
        self.init(text: String(decoding: body, as: UTF8.self))
    }

    init(text: String) {
        var fields: [String: String] = [:]
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = Self.decode(parts[0]), fields[name] == nil else { continue }
            fields[name] = parts.count > 1 ? Self.decode(parts[1]) ?? "" : ""
        }
        self.fields = fields
    }

    subscript(_ name: String) -> String? { fields[name] }

    /// `+` is a space; then percent escapes. Nil when they are not valid UTF-8.
    private static func decode(_ raw: Substring) -> String? {
        String(raw).replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }
}
