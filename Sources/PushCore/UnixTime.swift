import Foundation

/// The Unix milliseconds Sendbird uses on the wire: conversions from and to `Date`, and sums.
public enum UnixTime {
    /// Milliseconds since 1970, rounded down (so an instant is never reported as later than it was).
    public static func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
    }

    public static func date(milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    /// `base + milliseconds`, saturating: callers pass `Int64.max` as "forever" and `.min` as
    /// "never".
    public static func adding(_ milliseconds: Int64, to base: Int64) -> Int64 {
        let (sum, overflow) = base.addingReportingOverflow(milliseconds)
        return overflow ? (milliseconds > 0 ? .max : .min) : sum
    }
}
