import Foundation

/// The wall clock in Unix milliseconds: the default wherever a clock is injected.
public enum WallClock {
    public static let milliseconds: @Sendable () -> Int64 = {
        Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
    }
}

extension WallClock {
    /// `base + milliseconds`, saturating: callers pass `Int64.max` as "forever" and `.min` as
    /// "never".
    public static func adding(_ milliseconds: Int64, to base: Int64) -> Int64 {
        let (sum, overflow) = base.addingReportingOverflow(milliseconds)
        return overflow ? (milliseconds > 0 ? .max : .min) : sum
    }
}
