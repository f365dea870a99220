import APNsMock
import Foundation
import PushCore
import Testing

@testable import APNs

/// Live Activity pushes: the payloads Apple documents for a start (push-to-start), an update and an
/// end, refused locally when they break a rule, and accepted by the validating apns-mock over the
/// real client with the `liveactivity` push type and topic.
@Suite(.timeLimit(.minutes(5))) struct LiveActivityContentTests {
    static let state: JSONValue = .object(["home": .int(2), "away": .int(1)])

    static let start = LiveActivityContent(
        event: .start, timestamp: 1_700_000_000, contentState: state, staleDate: 1_700_003_600, attributesType: "MatchAttributes",
        attributes: .object(["match": .string("A–B")]), alert: .init(title: "Kick-off", body: "A–B started"), requestsUpdateToken: true)
    static let update = LiveActivityContent(event: .update, timestamp: 1_700_000_060, contentState: state, relevanceScore: 75)
    static let end = LiveActivityContent(event: .end, timestamp: 1_700_005_400, dismissalDate: 1_700_009_000)

    @Test func payloadsAreApplesShapeWithSortedKeys() throws {
        let update = String(decoding: try Self.update.payload(), as: UTF8.self)
        #expect(update == #"{"aps":{"content-state":{"away":1,"home":2},"event":"update","relevance-score":75.0,"timestamp":1700000060}}"#)
        let start = try #require(try JSONValue.parse(Data(try Self.start.payload())).objectValue?["aps"]?.objectValue)
        #expect(start["attributes-type"] == .string("MatchAttributes"))
        #expect(start["input-push-token"] == .int(1))
        #expect(start["alert"] == .object(["title": .string("Kick-off"), "body": .string("A–B started")]))
        #expect(
            String(decoding: try Self.end.payload(), as: UTF8.self)
                == #"{"aps":{"dismissal-date":1700009000,"event":"end","timestamp":1700005400}}"#)
        #expect(LiveActivityContent.topic(bundleID: "com.example.app") == "com.example.app.push-type.liveactivity")
    }

    @Test func whatAppleWouldRefuseIsRefusedHere() {
        var noState = Self.update
        noState.contentState = nil
        #expect(throws: LiveActivityError.missing("content-state")) { try noState.payload() }
        var noType = Self.start
        noType.attributesType = nil
        #expect(throws: LiveActivityError.missing("attributes-type")) { try noType.payload() }
        var startingUpdate = Self.update
        startingUpdate.attributes = .object([:])
        #expect(throws: LiveActivityError.onlyToStart) { try startingUpdate.payload() }
        var listState = Self.update
        listState.contentState = .array([])
        #expect(throws: LiveActivityError.missing("content-state as an object")) { try listState.payload() }
        var huge = Self.update
        huge.contentState = .object(["text": .string(String(repeating: "x", count: 5000))])
        #expect(throws: LiveActivityError.tooLarge(bytes: 5100)) { try huge.payload() }
    }

    /// The three events through the real client to the validating mock: accepted with the
    /// liveactivity topic; the bundle id alone answers `TopicDisallowed`.
    @Test func theMockTakesEachEventOnTheLiveActivityTopic() async throws {
        try await withMock { mock in
            let client = try APNsClient(
                configuration: Fixtures.clientConfiguration(port: mock.port, authentication: .token(try Fixtures.tokenCache())))
            let topic = LiveActivityContent.topic(bundleID: Fixtures.topic)
            var statuses: [Int] = []
            for (content, priority) in [(Self.start, APNsPriority.immediate), (Self.update, .low), (Self.end, .immediate)] {
                let response = try await client.send(
                    APNsRequest(
                        deviceToken: Fixtures.deviceToken, topic: topic, payload: try content.payload(), pushType: .liveactivity,
                        priority: priority))
                statuses.append(response.status)
            }
            let wrongTopic = try await client.send(
                APNsRequest(
                    deviceToken: Fixtures.deviceToken, topic: Fixtures.topic, payload: try Self.update.payload(), pushType: .liveactivity))
            await client.shutdown()
            #expect(statuses == [200, 200, 200])
            #expect(wrongTopic.status == 400 && wrongTopic.reason?.rawValue == "TopicDisallowed")
            #expect(mock.notifications.map { $0.headers["apns-priority"] } == ["10", "5", "10"])
        }
    }
}
