import Foundation
import PushStore
import StoreContract
import Testing
@testable import PushService
@testable import PushEngine

/// The hand-off path's room: taken by a reservation, given back exactly once. Using a
/// reservation twice (`release()` after `handOff`, or two `release()`s) does not compile: it is
/// non-copyable and both consume it.
@Suite(.timeLimit(.minutes(5))) struct DispatchInboxTests {
    static func records(_ count: Int) -> [DeliveryRecord] {
        let event = AcceptedEvent(
            appID: "app", messageID: 1, channelURL: "channel", acceptedAtMs: 0, decisions: [],
            deliveries: (0..<count).map { _ in
                NewDelivery(
                    userID: "u", deviceToken: "t", payload: Data(), pushID: UUID(), provider: .apns, pushType: "alert",
                    priority: 10, expiresAtMs: 1000)
            })
        return event.deliveryRecords(ids: (0..<count).map(Int64.init))
    }

    static func canReserve(_ inbox: DispatchInbox, _ count: Int) -> Bool {
        inbox.reserve(count, app: "app", nowMs: 0) != nil
    }

    @Test func reservesOnlyWhileOpenAndWithinTheWindow() {
        let inbox = DispatchInbox(window: 4)
        #expect(!Self.canReserve(inbox, 1), "closed")
        inbox.open()
        #expect(!Self.canReserve(inbox, 0))
        #expect(!Self.canReserve(inbox, 5))
        let held = inbox.reserve(3, app: "app", nowMs: 0)
        #expect(inbox.reserved == 3)
        #expect(!Self.canReserve(inbox, 2))
        #expect(Self.canReserve(inbox, 1))
        _ = consume held
    }

    @Test func aReleasedOrDroppedReservationGivesItsRoomBackOnce() {
        let inbox = DispatchInbox(window: 4)
        inbox.open()
        var reservation = inbox.reserve(3, app: "app", nowMs: 0)
        #expect(inbox.reserved == 3)
        reservation.take()!.release()
        #expect(inbox.reserved == 0)
        do {
            let dropped = inbox.reserve(2, app: "app", nowMs: 0)
            #expect(inbox.reserved == 2)
            _ = consume dropped
        }
        #expect(inbox.reserved == 0)
        #expect(Self.canReserve(inbox, 4))
    }

    @Test func handedOffRoomIsHeldUntilTheDispatcherGivesItBack() {
        let inbox = DispatchInbox(window: 4)
        inbox.open()
        var reservation = inbox.reserve(3, app: "app", nowMs: 0)
        // Two of the three were committed: the third's room comes back at once.
        let handedOff = inbox.handOff(reservation.take()!, Self.records(2))
        #expect(handedOff)
        #expect(inbox.reserved == 2)
        #expect(inbox.take().count == 2)
        #expect(inbox.take().isEmpty)
        #expect(inbox.reserved == 2, "taken, not finished")
        inbox.giveBack(1, app: "app")
        inbox.giveBack(1, app: "app")
        #expect(inbox.reserved == 0)
    }

    @Test func aClosedInboxRefusesTheHandOffAndGivesBackWhatItHeld() {
        let inbox = DispatchInbox(window: 4)
        inbox.open()
        var first = inbox.reserve(2, app: "app", nowMs: 0)
        var second = inbox.reserve(2, app: "app", nowMs: 0)
        let handedOff = inbox.handOff(first.take()!, Self.records(2))
        #expect(handedOff)
        #expect(inbox.close().count == 2)
        #expect(inbox.reserved == 2, "the second reservation's room only")
        let refused = !inbox.handOff(second.take()!, Self.records(2))
        #expect(refused)
        #expect(inbox.reserved == 0)
        #expect(!Self.canReserve(inbox, 1))
    }

    /// Two apps share the room: one alone takes all of it; once another asked (and was refused),
    /// each holds at most half, so the first cannot keep the second out by refilling its room.
    @Test func eachAppGetsItsShareOnceAnotherWantsRoom() {
        let inbox = DispatchInbox(window: 8)
        inbox.open()
        var a = inbox.reserve(8, app: "a", nowMs: 0)
        #expect(inbox.reserved == 8, "alone: the whole window")
        #expect(!Self.canReserve(inbox, 1, app: "b", nowMs: 10), "full")
        a.take()!.release()
        #expect(!Self.canReserve(inbox, 5, app: "a", nowMs: 20), "b wants room: a's share is half")
        var a4 = inbox.reserve(4, app: "a", nowMs: 20)
        var b4 = inbox.reserve(4, app: "b", nowMs: 30)
        #expect(inbox.reserved == 8, "a's half and b's half")
        a4.take()!.release()
        b4.take()!.release()
        // A second later b no longer counts as wanting: a alone again.
        #expect(Self.canReserve(inbox, 8, app: "a", nowMs: 30 + HandOffShares.wantingMs))
    }

    static func canReserve(_ inbox: DispatchInbox, _ count: Int, app: String, nowMs: Int64) -> Bool {
        inbox.reserve(count, app: app, nowMs: nowMs) != nil
    }
}
