import Foundation
import Synchronization

/// A clock tests move by hand; handed to the mock as `configuration.now`.
final class TestClock: Sendable {
    private let current: Mutex<Date>

    init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        self.current = Mutex(start)
    }

    var now: Date { self.current.withLock { $0 } }

    func advance(by seconds: TimeInterval) {
        self.current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }
}
