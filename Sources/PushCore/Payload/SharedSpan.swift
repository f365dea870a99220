/// A run of a payload's bytes that every recipient's payload of the same event has
/// (`PreparedEvent.sharedBytes`): the store keeps those bytes once per event and each payload
/// without them, so an 8-push event writes its channel, message and sender once, not 8 times.
public struct SharedSpan: Sendable, Hashable {
    /// Where the run starts in the payload.
    public var position: Int
    /// Where it starts in the event's shared bytes.
    public var offset: Int
    public var length: Int

    public init(position: Int, offset: Int, length: Int) {
        self.position = position
        self.offset = offset
        self.length = length
    }
}
