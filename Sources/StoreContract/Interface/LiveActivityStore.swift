/// Live Activities (APNs `liveactivity` pushes): users' push-to-start tokens per attributes type,
/// activities by the app's id with their update tokens, and their pushes queued like any other.
/// A token the provider calls dead is removed by the delivery's outcome (`recordOutcomes`), as a
/// device token is.
public protocol LiveActivityStore: Sendable {
    /// Registers a push-to-start token of the user for `attributesType` (a token moves from another
    /// user or type); beyond `maximumTokensPerUser` of the user the oldest go.
    func registerStartToken(app: String, user: String, attributesType: String, token: String, nowMs: Int64) async throws

    /// Removes one of the user's push-to-start tokens; whether it was there.
    @discardableResult
    func removeStartToken(app: String, user: String, token: String) async throws -> Bool

    /// The user's push-to-start tokens as (attributes type, token), oldest first.
    func startTokens(app: String, user: String) async throws -> [(attributesType: String, token: String)]

    /// Sets an activity's update token (the device's `Activity.pushToken`), creating the activity
    /// when the relay does not know it (the app started it on the device). Nil when the id is
    /// another user's activity.
    func registerActivityToken(app: String, user: String, activityID: String, token: String, nowMs: Int64) async throws
        -> LiveActivityRecord?

    func activity(app: String, id: String) async throws -> LiveActivityRecord?

    /// The user's activities, newest first.
    func activities(app: String, user: String) async throws -> [LiveActivityRecord]

    /// Queues the pushes of a start, update or end, and records what it did to the activity, in
    /// one transaction.
    func queueLiveActivityPush(_ push: LiveActivityPush) async throws -> LiveActivityQueueResult

    /// Removes ended activities whose dismissal date has passed, with their tokens; how many.
    @discardableResult
    func pruneLiveActivities(nowMs: Int64) async throws -> Int
}
