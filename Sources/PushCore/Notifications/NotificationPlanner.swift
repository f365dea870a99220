import Foundation

/// Plans one batch of a notification's audience: for every user the policy's decision
/// (`NotificationPolicy`) and, for a push, the payload in each format the user's providers take,
/// in the user's language. Pure: the caller reads the users' states and passes `now`.
public struct NotificationPlanner: Sendable {
    public let payload: NotificationPayload
    /// Where the app can push, and the payload format of each.
    public let formats: [PushProvider: PayloadFormat]
    private let texts: NotificationTextIndex

    public init(payload: NotificationPayload, formats: [PushProvider: PayloadFormat]) {
        self.payload = payload
        self.formats = formats
        texts = NotificationTextIndex(payload.content.texts)
    }

    /// A plan per user, in the order given; a user listed twice (the same bytes) is planned once.
    public func plan(_ users: [String], lookup: RecipientLookup, now: Date) -> [RecipientPlan] {
        var seen = Set<ExactID>()
        var plans: [RecipientPlan] = []
        plans.reserveCapacity(users.count)
        for user in users where seen.insert(ExactID(user)).inserted {
            plans.append(plan(user, state: lookup[user], now: now))
        }
        return plans
    }

    func plan(_ user: String, state: RecipientPushState, now: Date) -> RecipientPlan {
        var tokens = state.tokens
        tokens.removeAll { formats[$0.provider] == nil }
        let decision = NotificationPolicy.decide(
            preferences: state.preferences, deviceTokenCount: tokens.count, timeSensitive: payload.content.isTimeSensitive,
            now: now)
        guard decision == .push else { return RecipientPlan(userID: user, decision: decision) }
        let text = texts.text(for: state.languages)
        let dataProviders = Set(tokens.lazy.map(\.provider).filter { self.formats[$0]?.dataMessageRule != nil })
        do {
            let notification = try payload.notification(text, user: user)
            let data =
                dataProviders.isEmpty
                ? nil
                : try payload.dataMessage(
                    text, user: user, rules: dataProviders.compactMap { self.formats[$0]?.dataMessageRule })
            return RecipientPlan(
                userID: user, decision: .push, payload: notification, dataPayload: data, dataMessageProviders: dataProviders,
                deviceTokens: tokens)
        } catch {
            return RecipientPlan(userID: user, decision: .skip(.payloadTooLarge))
        }
    }
}
