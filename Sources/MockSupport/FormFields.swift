import Foundation

/// The fields of an `application/x-www-form-urlencoded` body, as token endpoints take them.
package enum FormFields {
    /// Each `name=value` pair, `+` and percent escapes decoded; a later pair wins, a name without
    /// `=` has an empty value.
    package static func parse(_ body: Data) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in String(decoding: body, as: UTF8.self).split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decoded(_ text: Substring) -> String {
                String(text).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(text)
            }
            fields[decoded(parts[0])] = parts.count > 1 ? decoded(parts[1]) : ""
        }
        return fields
    }
}
