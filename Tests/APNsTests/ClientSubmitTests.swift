import APNs
import APNsMock
import Foundation
import Synchronization
import Testing

/// `APNsClient.submit`: answers to a completion handler, without a task per notification.
@Suite("APNs client, submit with a completion handler", .timeLimit(.minutes(5)))
struct ClientSubmitTests {
    /// Collects what the handlers were given; `results()` returns once `count` came.
    final class Answers: Sendable {
        private struct State {
            var results: [Result<APNsResponse, any Error>] = []
            var waiter: CheckedContinuation<Void, Never>?
            var gaveUp = false
        }
        private let state = Mutex(State())
        let count: Int
        init(count: Int) { self.count = count }

        func add(_ result: Result<APNsResponse, any Error>) {
            let waiter = state.withLock { s in
                s.results.append(result)
                guard s.results.count == count else { return CheckedContinuation<Void, Never>?.none }
                defer { s.waiter = nil }
                return s.waiter
            }
            waiter?.resume()
        }

        /// What came once all `count` came. A handler never called fails the test after
        /// `limit` (far above any expected wait) instead of hanging the suite.
        func results(limit: Duration = .seconds(120)) async -> [Result<APNsResponse, any Error>] {
            let all = await withTaskGroup(of: Bool.self) { group in
                group.addTask {
                    await withCheckedContinuation { continuation in
                        let now = self.state.withLock { s in
                            if s.results.count == self.count || s.gaveUp { return true }
                            s.waiter = continuation
                            return false
                        }
                        if now { continuation.resume() }
                    }
                    return true
                }
                group.addTask {
                    try? await Task.sleep(for: limit)
                    return false
                }
                let first = await group.next() ?? false
                if !first { self.giveUp() }  // frees the waiting child
                group.cancelAll()
                return first
            }
            let results = state.withLock { $0.results }
            #expect(all && results.count == count, "\(results.count) of \(count) completion handlers were called within \(limit)")
            return results
        }

        private func giveUp() {
            let waiter = state.withLock { s in
                s.gaveUp = true
                defer { s.waiter = nil }
                return s.waiter
            }
            waiter?.resume()
        }
    }

    @Test func manyInFlightEachAnsweredOnce() async throws {
        try await withMock { mock in
            let client = try APNsClient(
                configuration: Fixtures.clientConfiguration(
                    port: mock.port, authentication: .token(try Fixtures.tokenCache()), connections: 2))
            let answers = Answers(count: 600)
            let ids = (0..<600).map { _ in APNsID.random() }
            for id in ids { client.submit(request(id: id)) { answers.add($0) } }
            let results = await answers.results()
            await client.shutdown()
            let responses = results.compactMap { try? $0.get() }
            #expect(responses.count == 600)
            #expect(responses.allSatisfy { $0.status == 200 })
            #expect(Set(responses.compactMap(\.apnsID)) == Set(ids), "each notification answered exactly once")
            #expect(mock.notifications.count == 600)
        }
    }

    @Test func aMalformedRequestIsRefusedBeforeSubmitReturns() async throws {
        try await withMock { mock in
            let client = try APNsClient(
                configuration: Fixtures.clientConfiguration(port: mock.port, authentication: .token(try Fixtures.tokenCache())))
            let answers = Answers(count: 1)
            client.submit(request(token: "not-hex")) { answers.add($0) }
            let result = try #require(await answers.results().first)
            await client.shutdown()
            #expect(throws: APNsError.self) { try result.get() }
            #expect(mock.notifications.isEmpty)
        }
    }

    @Test func cancelEndsAnUnansweredNotificationWithCancellationError() async throws {
        try await withMock { mock in
            let client = try APNsClient(
                configuration: Fixtures.clientConfiguration(port: mock.port, authentication: .token(try Fixtures.tokenCache())))
            #expect(try await client.send(request()).status == 200)
            mock.addFault(.neverAnswer(count: 1))
            let answers = Answers(count: 1)
            let handle = client.submit(request()) { answers.add($0) }
            try await waitForStreams(client, 1)
            handle.cancel()
            handle.cancel()  // a second cancel changes nothing
            let result = try #require(await answers.results().first)
            #expect(throws: CancellationError.self) { try result.get() }
            // The connection goes on serving.
            #expect(try await client.send(request()).status == 200)
            await client.shutdown()
        }
    }

    @Test func anExpiredProviderTokenIsRenewedOnceForABurst() async throws {
        try await withMock { mock in
            let cache = try Fixtures.tokenCache()
            let client = try APNsClient(configuration: Fixtures.clientConfiguration(port: mock.port, authentication: .token(cache)))
            #expect(try await client.send(request()).status == 200)
            mock.addFault(.expireProviderTokens)
            let answers = Answers(count: 200)
            for _ in 0..<200 { client.submit(request()) { answers.add($0) } }
            let results = await answers.results()
            await client.shutdown()
            #expect(results.allSatisfy { (try? $0.get().status) == 200 })
            #expect(cache.mintedCount == 2, "one new token for the whole burst")
        }
    }
}
