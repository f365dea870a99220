/// Cancels one submitted push (see `PushSender.submit`).
public struct PushSendHandle: Sendable {
    private let cancelling: @Sendable () -> Void

    public init(cancel: @escaping @Sendable () -> Void) {
        cancelling = cancel
    }

    /// A push that cannot be cancelled (answered at once, or by a sender with nothing to cancel).
    public static let none = PushSendHandle {}

    public func cancel() { cancelling() }
}
