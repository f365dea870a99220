import APNsMock
import Foundation
import PushSending
import Testing

@testable import APNs

/// `apns-unique-id`: APNs' development environment answers it with each 200 (it finds the push in
/// Apple's Push Notifications Console); the sender keeps it as the push's provider id, which the
/// delivery log and the console show. Production sends none.
@Suite(.timeLimit(.minutes(5))) struct UniqueIDTests {
    @Test(arguments: [APNsMockConfiguration.Environment.development, .production])
    func theDevelopmentEnvironmentsUniqueIDIsKept(environment: APNsMockConfiguration.Environment) async throws {
        var configuration = Fixtures.mockConfiguration()
        configuration.environment = environment
        try await withMock(configuration) { mock in
            let client = try APNsClient(
                configuration: Fixtures.clientConfiguration(port: mock.port, authentication: .token(try Fixtures.tokenCache())))
            let response = try await client.send(
                APNsRequest(deviceToken: Fixtures.deviceToken, topic: Fixtures.topic, payload: Fixtures.payload(), pushType: .alert))
            await client.shutdown()
            let answered = try #require(mock.notifications.first).headers["apns-unique-id"]
            #expect(response.uniqueID == answered)
            #expect((answered != nil) == (environment == .development))
            #expect(APNsSender.outcome(of: response) == .delivered(providerID: answered))
        }
    }
}
