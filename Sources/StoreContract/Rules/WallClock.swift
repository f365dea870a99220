import Foundation
import PushCore

/// The wall clock in Unix milliseconds: the default wherever a clock is injected.
public enum WallClock {
    public static let milliseconds: @Sendable () -> Int64 = {
        Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
    }
}

extension WallClock {
    /// `base + milliseconds`, saturating (`UnixTime.adding`).
    public static func adding(_ milliseconds: Int64, to base: Int64) -> Int64 {
        UnixTime.adding(milliseconds, to: base)
    }
}
