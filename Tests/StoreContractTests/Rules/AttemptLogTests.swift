import Foundation
import StoreContract
import Testing

@Suite(.timeLimit(.minutes(1))) struct AttemptLogTests {
    static let id = UUID()

    /// A plain acceptance at the moment the delivery was sent is the delivery's row; everything
    /// else is logged.
    @Test func onlyAPlainAcceptanceIsLeftToTheDeliveryRow() {
        let accepted = DeliveryAttempt(atMs: 5, status: 200, reason: nil, error: nil, pushID: Self.id)
        #expect(AttemptLog.row(for: accepted, state: .sent, atMs: 5) == nil)
        #expect(AttemptLog.row(for: accepted, state: .sent, atMs: 6) == accepted, "a different moment")
        #expect(AttemptLog.row(for: accepted, state: .pending, atMs: 5) == accepted)
        let refused = DeliveryAttempt(atMs: 5, status: 400, reason: "BadDeviceToken", error: nil, pushID: Self.id)
        #expect(AttemptLog.row(for: refused, state: .failed, atMs: 5) == refused)
        #expect(AttemptLog.row(for: nil, state: .sent, atMs: 5) == nil)
    }
}
