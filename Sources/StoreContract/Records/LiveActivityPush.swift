import Foundation
import PushCore

/// A start, update or end of a Live Activity to queue: its pushes go through the delivery queue
/// like a badge push (message id 0), to the user's push-to-start tokens of `attributesType` (a
/// start) or to the activity's update token.
public struct LiveActivityPush: Sendable, Hashable {
    public enum Event: String, Sendable, Hashable {
        case start, update, end
    }

    public var appID: String
    public var activityID: String
    public var event: Event
    /// The activity's user: required to start one; for an update or end, the activity's own.
    public var userID: String?
    /// To start one: whose push-to-start tokens get it.
    public var attributesType: String?
    public var payload: Data
    public var provider: PushProvider
    public var pushType: String
    /// 5 (the default: no budget spent) or 10 (counted in `LiveActivityRecord.highPriorityPushes`).
    public var priority: Int
    public var expiresAtMs: Int64
    public var atMs: Int64
    /// For an end: when the activity and its token are removed (its dismissal date); at once
    /// when not later than `atMs`.
    public var removeAtMs: Int64?

    public init(
        appID: String, activityID: String, event: Event, userID: String? = nil, attributesType: String? = nil, payload: Data,
        provider: PushProvider, pushType: String, priority: Int, expiresAtMs: Int64, atMs: Int64, removeAtMs: Int64? = nil
    ) {
        self.appID = appID
        self.activityID = activityID
        self.event = event
        self.userID = userID
        self.attributesType = attributesType
        self.payload = payload
        self.provider = provider
        self.pushType = pushType
        self.priority = priority
        self.expiresAtMs = expiresAtMs
        self.atMs = atMs
        self.removeAtMs = removeAtMs
    }
}

/// What queueing a `LiveActivityPush` did.
public enum LiveActivityQueueResult: Sendable, Hashable {
    /// `pushes` queued (one per token), the activity as it now stands (nil once an end removed it).
    case queued(LiveActivityRecord?, pushes: Int)
    /// An update or end of an id the relay does not know (never started, or removed).
    case unknownActivity
    /// An update of an ended activity.
    case ended
    /// Nowhere to send: the user has no push-to-start token of the type, or the activity no update
    /// token yet. Nothing is written.
    case noToken
    /// A start of an id another user's activity has.
    case otherUsersActivity
}
