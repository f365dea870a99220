import Foundation
import StoreContract
import Testing

@Suite(.timeLimit(.minutes(1))) struct TokenRegistrationRuleTests {
    static func rule(isUnique: Bool = false, moves: Bool = true, limit: Int = 3) -> TokenRegistrationRule {
        TokenRegistrationRule(user: "bob", isUnique: isUnique, movesFromOtherUsers: moves, limit: limit)
    }

    @Test func aNewTokenRemovesNothingWithinTheLimit() throws {
        let plan = try Self.rule().plan(holder: nil, userTokens: ["a", "b"])
        #expect(plan.previousOwner == nil && plan.removedTokens.isEmpty)
    }

    @Test func theOldestBeyondTheLimitGoFirst() throws {
        #expect(try Self.rule(limit: 3).plan(holder: nil, userTokens: ["a", "b", "c", "d"]).removedTokens == ["a", "b"])
        #expect(try Self.rule(limit: 0).plan(holder: nil, userTokens: ["a"]).removedTokens == ["a"], "the new token always stays")
    }

    @Test func uniqueRemovesEveryOtherTokenOfTheProvider() throws {
        #expect(try Self.rule(isUnique: true).plan(holder: "bob", userTokens: ["a", "b"]).removedTokens == ["a", "b"])
    }

    /// Another user's token moves to a server's registration, and is refused to a device's own
    /// session; the same user's, by its bytes, is no move.
    @Test func aTokenHeldByAnotherUserMovesOnlyWhenTheCallerMayMoveIt() throws {
        #expect(try Self.rule().plan(holder: "alice", userTokens: []).previousOwner == "alice")
        #expect(throws: PushStoreError.heldByAnotherUser) { try Self.rule(moves: false).plan(holder: "alice", userTokens: []) }
        #expect(try Self.rule(moves: false).plan(holder: "bob", userTokens: []).previousOwner == nil)
        // "é" precomposed and decomposed: equal as Swift strings, two users by their bytes.
        let composed = TokenRegistrationRule(user: "\u{e9}", isUnique: false, movesFromOtherUsers: false, limit: 3)
        #expect(throws: PushStoreError.heldByAnotherUser) { try composed.plan(holder: "e\u{301}", userTokens: []) }
    }
}
