import Foundation
import Logging
import Testing

@testable import PushService
@testable import PushStore
@testable import StoreContract

/// The relay's view of the fleet's credentials when a change it heard of cannot be read: it
/// tries again at once, and past `maximumStaleness` it says it cannot vouch for what it holds,
/// although the watch hears (before, it answered as if current until the next 30 s poll).
@Suite(.timeLimit(.minutes(1))) struct CredentialDirectoryTests {
    @Test func aHeardChangeThatCannotBeReadMakesTheViewUnverifiable() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("credentials-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try SQLiteStore(path: directory.appendingPathComponent("r.sqlite").path)
        let credentials = try await CredentialDirectory.load(
            store: store, maximumSessionLifetime: AppLimits.defaultMaxSessionLifetime, logger: Logger(label: "test"))
        #expect(credentials.isCurrent)
        #expect(store.credentialWatch.isHearing)
        try store.pool.close()
        store.credentialWatch.changed(app: "A")
        let giveUp = ContinuousClock.now + .seconds(30)
        while credentials.isCurrent, ContinuousClock.now < giveUp { try await Task.sleep(for: .milliseconds(50)) }
        #expect(!credentials.isCurrent, "a change it could not read is not a view it can vouch for")
        #expect(credentials.app(forDigest: Array(repeating: 1, count: 32)) == .unverifiable)
    }
}
