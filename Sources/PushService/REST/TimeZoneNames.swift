import Foundation

/// Validates IANA time zone names (`Asia/Seoul`, `UTC`). Foundation's `TimeZone(identifier:)`
/// also accepts abbreviations and offsets such as `EST` or `GMT+5`, which Sendbird's API does
/// not, so a name must also be in the system's tz database list.
enum TimeZoneNames {
    private static let known: Set<String> = Set(TimeZone.knownTimeZoneIdentifiers).union(["UTC", "Etc/UTC", "GMT", "Etc/GMT"])

    static func isValid(_ name: String) -> Bool {
        known.contains(name) && TimeZone(identifier: name) != nil
    }
}
