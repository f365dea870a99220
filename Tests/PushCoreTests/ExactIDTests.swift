import Foundation
import Testing
@testable import PushCore

/// Ids are bytes: pairs that Swift's `String` calls equal (canonical equivalence) are two ids
/// everywhere the relay decides who is who, as they are in SQLite and PostgreSQL.
@Suite(.timeLimit(.minutes(5))) struct ExactIDTests {
    /// Canonically equal, different bytes: NFC and NFD, a singleton (Kelvin and Ångström signs), a
    /// Hangul syllable and its jamo, and combining marks in another order.
    static let pairs: [(String, String)] = [
        ("caf\u{E9}", "cafe\u{301}"), ("Kate", "\u{212A}ate"), ("\u{C5}sa", "\u{212B}sa"),
        ("\u{D55C}", "\u{1112}\u{1161}\u{11AB}"), ("a\u{301}\u{323}", "a\u{323}\u{301}"),
    ]

    @Test(arguments: pairs) func canonicallyEqualSpellingsAreTwoIDs(first: String, second: String) {
        #expect(first == second, "Swift's String calls them equal: the reason for ExactID")
        #expect(Array(first.utf8) != Array(second.utf8))
        #expect(!first.sameBytes(as: second))
        #expect(ExactID(first) != ExactID(second))
        #expect(Set([ExactID(first), ExactID(second)]).count == 2)
        let keyed: [ExactID: Int] = [ExactID(first): 1, ExactID(second): 2]
        #expect(keyed[ExactID(first)] == 1 && keyed[ExactID(second)] == 2)
    }

    @Test func theSameBytesAreOneID() {
        let built = String(decoding: Array("caf\u{E9}".utf8), as: UTF8.self)
        #expect(ExactID(built) == ExactID("caf\u{E9}"))
        #expect(ExactID(built).hashValue == ExactID("caf\u{E9}").hashValue)
        #expect("".sameBytes(as: ""))
        #expect(!"a".sameBytes(as: "ab"))
        // A substring's bytes (not contiguous as a String of its own until copied).
        let sliced = String("xcaf\u{E9}".dropFirst())
        #expect(sliced.sameBytes(as: "caf\u{E9}"))
    }

    /// The planner keys members by bytes: the NFC user is not the NFD user whose tokens the
    /// store found, and both get a decision of their own.
    @Test(arguments: pairs) func thePlannerKeepsLookAlikesApart(first: String, second: String) {
        let tokens = [DeviceToken(token: "aa11", registeredAtMs: 1)]
        let event = makeEvent(members: [member("alice"), member(first), member(second), member(second)])
        let plan = PushPlanner().plan(event, lookup: RecipientLookup(deviceTokens: [ExactID(second): tokens]), now: Date())
        #expect(plan.recipients.map(\.decision) == [.skip(.sender), .skip(.noToken), .push])
        #expect(plan.recipients.map { Array($0.userID.utf8) } == [Array("alice".utf8), Array(first.utf8), Array(second.utf8)])
    }

    /// The policy's comparisons: the sender, a mentioned user and a blocked bot are the ids
    /// given, byte for byte.
    @Test(arguments: pairs) func thePolicyComparesBytes(first: String, second: String) {
        let policy = RecipientPolicy(options: .defaults)
        let sentByFirst = makeEvent(sender: WebhookSender(userID: first, nickname: "F"), members: [member(second)])
        #expect(policy.skipBeforePreferences(event: sentByFirst, member: member(second)) == nil, "not the sender")
        #expect(policy.skipBeforePreferences(event: sentByFirst, member: member(first)) == .sender)

        let mentioning = makeEvent(mentionType: .users, mentioned: [first])
        #expect(mentioning.mentions(userID: first))
        #expect(!mentioning.mentions(userID: second))

        var blocking = UserPushPreferences.defaults
        blocking.blockPushFromBots = true
        blocking.pushBlockedBotIDs = [first]
        let fromBot = makeEvent(sender: WebhookSender(userID: second, nickname: "Bot", isBot: true), members: [member("bob")])
        let decision = policy.decide(
            event: fromBot, member: member("bob"), userPreferences: blocking, channelPreference: .defaults, deviceTokenCount: 1,
            now: Date())
        #expect(decision == .push, "a bot whose id only looks like a blocked one is not blocked")
    }
}
