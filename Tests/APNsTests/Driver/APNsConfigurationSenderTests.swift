import APNsMock
import Foundation
import PushSending
import Testing

@testable import APNs

/// An app's production and sandbox configurations behind one sender, against two mocks playing
/// Apple's two environments: a push goes through its token's configuration, and a token the one
/// answers `BadDeviceToken` for is tried once through the other environment's.
@Suite(.timeLimit(.minutes(5))) struct APNsConfigurationSenderTests {
    static let releaseToken = String(repeating: "b2", count: 32)
    static let debugToken = String(repeating: "c3", count: 32)

    @Test func aDebugBuildsTokenIsDeliveredThroughTheSandboxAndMovesThere() async throws {
        try await withEnvironments { sender, production, development in
            let release = await send(sender, token: Self.releaseToken)
            #expect(release.outcome == .delivered(providerID: nil) && release.tokenConfiguration == nil)

            let debug = await send(sender, token: Self.debugToken)
            guard case .delivered = debug.outcome else { throw Failure("not delivered: \(debug)") }
            #expect(debug.tokenConfiguration == "debug")
            #expect(debug.error?.contains("\"production\" answered BadDeviceToken") == true)
            #expect(production.notifications.map(\.deviceToken) == [Self.releaseToken])
            #expect(development.notifications.map(\.deviceToken) == [Self.debugToken])

            // Registered to the debug configuration: straight there, nothing to move.
            let direct = await send(sender, token: Self.debugToken, configuration: "debug")
            #expect(direct.tokenConfiguration == nil && direct.status == 200)
            #expect(production.notifications.count == 1 && development.notifications.count == 2)

            // A configuration the app no longer has: the default's.
            let stale = await send(sender, token: Self.releaseToken, configuration: "removed")
            #expect(stale.status == 200 && production.notifications.count == 2)
        }
    }

    @Test func aTokenNeitherEnvironmentTakesIsDeadOnce() async throws {
        try await withEnvironments { sender, production, development in
            let dead = String(repeating: "d4", count: 32)
            production.markBadToken(dead)
            development.markBadToken(dead)
            let result = await send(sender, token: dead)
            #expect(result.outcome == .tokenDead(.always) && result.tokenConfiguration == nil)
            #expect(result.reason == "BadDeviceToken")
        }
    }

    /// Other answers of the first try are the push's: no second try.
    @Test func onlyBadDeviceTokenIsTriedAgain() async throws {
        try await withEnvironments { sender, production, development in
            production.markUnregistered(token: Self.releaseToken, at: Date(timeIntervalSince1970: 1_000))
            let result = await send(sender, token: Self.releaseToken)
            #expect(result.status == 410 && development.notifications.isEmpty)
        }
    }

    private func send(_ sender: APNsConfigurationSender, token: String, configuration: String? = nil) async -> PushSendResult {
        await withCheckedContinuation { continuation in
            sender.submit(
                OutgoingPush(
                    pushID: UUID(), deviceToken: token, payload: Fixtures.payload(), pushType: "alert", priority: 10,
                    expiresAtMs: Int64(Date().timeIntervalSince1970 * 1000) + 60_000, configuration: configuration),
                timeout: .seconds(30)
            ) { continuation.resume(returning: $0) }
        }
    }

    /// A production mock that knows the debug token as a development one, a development mock,
    /// and the sender over both (`production` the default).
    private func withEnvironments(
        _ body: (APNsConfigurationSender, APNsMockServer, APNsMockServer) async throws -> Void
    ) async throws {
        var developmentConfiguration = Fixtures.mockConfiguration()
        developmentConfiguration.environment = .development
        try await withMock { production in
            production.markEnvironment(of: Self.debugToken, .development)
            try await withMock(developmentConfiguration) { development in
                var senders: [String: APNsSender] = [:]
                for (name, port) in [("production", production.port), ("debug", development.port)] {
                    let client = try APNsClient(
                        configuration: Fixtures.clientConfiguration(port: port, authentication: .token(try Fixtures.tokenCache())))
                    senders[name] = APNsSender(client: client, topic: Fixtures.topic)
                }
                let sender = APNsConfigurationSender(
                    senders: senders, defaultName: "production", fallbacks: ["production": "debug", "debug": "production"])
                do {
                    try await body(sender, production, development)
                } catch {
                    await sender.shutdown()
                    throw error
                }
                await sender.shutdown()
            }
        }
    }
}

private struct Failure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
