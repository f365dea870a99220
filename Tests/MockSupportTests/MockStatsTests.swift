import Foundation
import MockSupport
import Testing

/// A mock's stats read the shared counters as their own, and are one flat JSON object.
@Suite(.timeLimit(.minutes(5))) struct MockStatsTests {
    struct Stats: MockStats {
        var counters = MockCounters()
        var ownCount = 0

        init() {}

        enum CodingKeys: String, CodingKey {
            case ownCount = "own_count"
        }

        init(from decoder: any Decoder) throws {
            counters = try MockCounters(from: decoder)
            ownCount = try decoder.container(keyedBy: CodingKeys.self).decode(Int.self, forKey: .ownCount)
        }

        func encode(to encoder: any Encoder) throws {
            try counters.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(ownCount, forKey: .ownCount)
        }
    }

    @Test func theCountersAreReadAndWrittenAsTheStatsOwn() throws {
        var stats = Stats()
        stats.tokensIssued += 2
        stats.responsesByStatus["200", default: 0] += 1
        stats.ownCount = 7
        #expect(stats.counters.tokensIssued == 2)
        let json = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(stats)) as? [String: Any])
        #expect(json["tokens_issued"] as? Int == 2)
        #expect(json["own_count"] as? Int == 7)
        #expect((json["responses_by_status"] as? [String: Int]) == ["200": 1])
        #expect(try JSONDecoder().decode(Stats.self, from: JSONEncoder().encode(stats)) == stats)
    }

    @Test func aResetKeepsOnlyTheOpenConnections() {
        var stats = Stats()
        stats.connectionsAccepted = 3
        stats.connectionsOpen = 2
        stats.ownCount = 1
        let reset = stats.afterReset()
        #expect(reset.connectionsOpen == 2)
        #expect(reset.connectionsAccepted == 0)
        #expect(reset.ownCount == 0)
    }
}
