import Foundation
import Synchronization
@testable import PushStore

/// A clock the test moves by hand (Unix milliseconds).
final class ManualClock: Sendable {
    private let now: Mutex<Int64>

    init(_ start: Int64 = 1_700_000_000_000) { now = Mutex(start) }

    var milliseconds: Int64 { now.withLock { $0 } }

    func advance(by ms: Int64) { now.withLock { $0 += ms } }

    var function: @Sendable () -> Int64 { { self.milliseconds } }
}

/// A real SQLite file in a fresh temporary directory, removed when the value is deinitialised.
final class TemporaryDatabase: Sendable {
    let directory: URL
    var path: String { directory.appendingPathComponent("relay.sqlite").path }

    init() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("PushStoreTests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    func open(clock: ManualClock = ManualClock(), configuration: PushStoreConfiguration = PushStoreConfiguration()) throws -> SQLiteStore {
        try SQLiteStore(path: path, configuration: configuration, clock: clock.function)
    }
}

/// A valid-looking 64-hex-digit APNs token derived from a number.
func hexToken(_ n: Int) -> String {
    String(repeating: String(format: "%08x", n), count: 8)
}
