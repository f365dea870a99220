import APNsMock
import Foundation
import HTTP2Transport
import Testing
import UUIDText

@testable import APNs

/// A stream nghttp2 refuses to open (`nghttp2_submit_request` < 0) must not strand its request:
/// it fails at once with a retryable error, and the client carries on on a fresh connection.
@Suite("APNs client when a stream cannot be opened", .timeLimit(.minutes(5)))
struct SubmitFailureTests {
    /// A client whose submits fail for exactly the requests with these apns-ids.
    private func client(port: Int, failing doomed: Set<UUID>) throws -> APNsClient {
        var config = Fixtures.clientConfiguration(port: port, authentication: .token(try Fixtures.tokenCache()))
        config.testHooks = TransportTestHooks(failSubmit: {
            $0.header("apns-id").flatMap(UUID.init(uuidString:)).map(doomed.contains) ?? false
        })
        return try APNsClient(configuration: config)
    }

    @Test func failedSubmitFailsAtOnceAsRetryableAndTheNextSendSucceeds() async throws {
        try await withMock { mock in
            let doomed = APNsID.random()
            let client = try client(port: mock.port, failing: [doomed])
            #expect(try await client.send(request()).status == 200)

            // "At once" is proven by the error's kind, not a clock: a stranded request could only end
            // by the request deadline (`.timeout`) or the bound here, never as `.connectFailed`.
            let outcome = await sendBounded(client, request(id: doomed))
            guard case .failure(let error) = outcome, let apnsError = error as? APNsError else {
                Issue.record("expected an APNsError, got \(outcome)")
                return
            }
            #expect(apnsError.isRetryable, "\(apnsError)")
            guard case .transport(.connectFailed(let message)) = apnsError else {
                Issue.record("expected connectFailed, got \(apnsError)")
                return
            }
            #expect(message.contains("HTTP/2 stream"), "\(message)")

            #expect(try await client.send(request()).status == 200)
            let ids = mock.notifications.map { $0.headers["apns-id"]! }
            #expect(ids.count == 2)
            #expect(!ids.contains(UUIDText.lowercase(doomed)), "the failed request never reached the server")
            #expect(mock.stats.connectionsAccepted == 2, "the connection that failed a submit was replaced")
            await client.shutdown()
        }
    }

    @Test func otherRequestsSurviveAFailedSubmitAmongThem() async throws {
        try await withMock { mock in
            let doomed = APNsID.random()
            let client = try client(port: mock.port, failing: [doomed])
            #expect(try await client.send(request()).status == 200)
            async let others = sendConcurrently(client, count: 200)
            let failed = await sendBounded(client, request(id: doomed))
            let statuses = try await others
            guard case .failure(let error) = failed else {
                Issue.record("the doomed request did not fail: \(failed)")
                return
            }
            #expect((error as? APNsError)?.isRetryable == true, "\(error)")
            // Queued ones move to a new connection, ones in flight finish on the old one.
            #expect(statuses.count == 200)
            #expect(statuses.allSatisfy { $0 == 200 }, "\(statuses.filter { $0 != 200 }.count) failed")
            #expect(mock.notifications.count == 201)
            await client.shutdown()
        }
    }
}
