import Foundation

/// Conversions between `Date` and the Unix milliseconds Sendbird uses on the wire.
public enum UnixTime {
    /// Milliseconds since 1970, rounded down (so an instant is never reported as later than it was).
    public static func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
    }

    public static func date(milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }
}
