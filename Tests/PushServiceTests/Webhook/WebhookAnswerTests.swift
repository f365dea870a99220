import Foundation
import Testing
@testable import PushService

@Suite(.timeLimit(.minutes(5))) struct WebhookAnswerTests {
    /// The hand-written body is exactly what the relay's JSON encoder gives for the same value.
    @Test(arguments: [
        WebhookAnswer(result: .accepted, deliveries: 8), WebhookAnswer(result: .duplicate, deliveries: 0),
        WebhookAnswer(result: .ignored, deliveries: 0), WebhookAnswer(result: .accepted, deliveries: 1_000_000),
    ])
    func bytesEqualTheRelaysEncoder(_ answer: WebhookAnswer) throws {
        let encoded = try RelayRequestContext.jsonEncoder.encode(answer)
        #expect(answer.json == String(decoding: encoded, as: UTF8.self))
    }
}
