import Foundation
import Testing

@testable import APNsMock

@Suite("ProviderTokenSession", .timeLimit(.minutes(5)))
struct ProviderTokenSessionTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)

    @Test("the first token is accepted; the same one stays accepted")
    func firstToken() {
        var session = ProviderTokenSession()
        #expect(session.offer("A", now: self.start) == .accepted(isNew: true))
        #expect(session.offer("A", now: self.start.addingTimeInterval(5)) == .accepted(isNew: false))
    }

    @Test("a different token within 20 minutes is refused, at 20 minutes accepted")
    func churn() {
        var session = ProviderTokenSession()
        _ = session.offer("A", now: self.start)
        #expect(session.offer("B", now: self.start.addingTimeInterval(1199)) == .tooManyUpdates)
        #expect(session.current == "A")
        #expect(session.offer("B", now: self.start.addingTimeInterval(1200)) == .accepted(isNew: true))
        #expect(session.offer("A", now: self.start.addingTimeInterval(1300)) == .tooManyUpdates)
    }

    @Test("after the current token was refused as expired, a new one is accepted at once")
    func afterExpiry() {
        var session = ProviderTokenSession()
        _ = session.offer("A", now: self.start)
        session.refusedAsExpired("OTHER")
        #expect(session.offer("B", now: self.start.addingTimeInterval(60)) == .tooManyUpdates)
        session.refusedAsExpired("A")
        #expect(session.offer("B", now: self.start.addingTimeInterval(60)) == .accepted(isNew: true))
    }
}
