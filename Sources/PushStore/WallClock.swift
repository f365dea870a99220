import Foundation

/// The wall clock in Unix milliseconds: the default wherever a clock is injected.
public enum WallClock {
    public static let milliseconds: @Sendable () -> Int64 = {
        Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
    }
}
