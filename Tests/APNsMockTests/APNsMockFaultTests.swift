import APNsMock
import Foundation
import Testing

@Suite("APNsMockFault JSON", .timeLimit(.minutes(5)))
struct APNsMockFaultTests {
    static let all: [APNsMockFault] = [
        .goAway(afterStreams: 3, reason: "Shutdown"),
        .maxConcurrentStreams(1),
        .refuseStreams(count: 2),
        .neverAnswer(count: 1),
        .dropConnection(afterStreams: 4),
        .status(code: 429, reason: "TooManyRequests", count: 1, retryAfterSeconds: 30),
        .status(code: 500, reason: "InternalServerError", count: 2, retryAfterSeconds: nil),
        .tlsHandshakeFailure(count: 1),
        .delay(milliseconds: 250),
        .expireProviderTokens,
    ]

    @Test("every fault survives a JSON round trip", arguments: Self.all)
    func roundTrip(_ fault: APNsMockFault) throws {
        let data = try JSONEncoder().encode(fault)
        #expect(try JSONDecoder().decode(APNsMockFault.self, from: data) == fault)
    }

    @Test("the documented shapes decode")
    func documentedShapes() throws {
        let decoder = JSONDecoder()
        #expect(
            try decoder.decode(APNsMockFault.self, from: Data(#"{"kind":"goAway","afterStreams":3,"reason":"Shutdown"}"#.utf8))
                == .goAway(afterStreams: 3, reason: "Shutdown")
        )
        #expect(
            try decoder.decode(APNsMockFault.self, from: Data(#"{"kind":"status","code":503,"reason":"ServiceUnavailable"}"#.utf8))
                == .status(code: 503, reason: "ServiceUnavailable", count: 1, retryAfterSeconds: nil)
        )
        #expect(try decoder.decode(APNsMockFault.self, from: Data(#"{"kind":"expireProviderTokens"}"#.utf8)) == .expireProviderTokens)
    }

    @Test("an unknown kind is a decoding error that names it")
    func unknownKind() {
        #expect {
            _ = try JSONDecoder().decode(APNsMockFault.self, from: Data(#"{"kind":"meteor"}"#.utf8))
        } throws: { error in
            "\(error)".contains("meteor")
        }
    }
}
