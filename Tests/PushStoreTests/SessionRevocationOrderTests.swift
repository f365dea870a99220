import PushStore
import StoreContract
import Testing

/// The order of "revoke every session" and new sessions, from what is stored rather than from
/// relays' clocks.
@Suite(.timeLimit(.minutes(1))) struct SessionRevocationOrderTests {
    @Test func theRevocationPassesEverySessionStoredAndNeverGoesBack() {
        #expect(SessionRevocationOrder.revokedBefore(nowMs: 100, newestSessionMs: nil, previousMs: nil) == 100)
        #expect(SessionRevocationOrder.revokedBefore(nowMs: 100, newestSessionMs: 500, previousMs: nil) == 501)
        #expect(SessionRevocationOrder.revokedBefore(nowMs: 100, newestSessionMs: 50, previousMs: 900) == 900)
    }

    @Test func aNewSessionIsNeverBeforeTheRevocation() {
        #expect(SessionRevocationOrder.createdAt(nowMs: 100, revokedBeforeMs: nil) == 100)
        #expect(SessionRevocationOrder.createdAt(nowMs: 100, revokedBeforeMs: 501) == 501)
        #expect(SessionRevocationOrder.createdAt(nowMs: 600, revokedBeforeMs: 501) == 600)
    }
}
