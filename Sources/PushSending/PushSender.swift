/// The seam between the dispatcher and a push provider (APNs, FCM, HMS): submit one push with a
/// deadline, get back what happened to it, classified the same way for every provider; shut
/// down. In the spirit of APNSwift's two-method `APNSClientProtocol`.
///
/// A completion rather than an `async` answer: the dispatcher keeps thousands of pushes in
/// flight, and a task waiting for each cost more than the push's HTTP/2 work (task creation and
/// teardown were about 15 % of the relay's CPU in a backlog drain). A sender whose client is
/// `async` runs its own task per push; one on the project's HTTP/2 transport answers from the
/// connection's thread.
public protocol PushSender: Sendable {
    /// Sends `push`, at most until `timeout` has passed; `completion` runs exactly once, on any
    /// thread, and must be quick. The handle cancels: `completion` then gets `.notSent` unless the
    /// provider's answer came first.
    @discardableResult
    func submit(_ push: OutgoingPush, timeout: Duration, completion: @escaping @Sendable (PushSendResult) -> Void)
        -> PushSendHandle

    /// The provider's connections as they are now (for `/ready` and metrics); nil when the
    /// sender keeps none of its own to report.
    var statistics: PushSenderStatistics? { get }

    /// The label values of its answers that dashboards divide by (exported from 0).
    var labels: PushSenderLabels { get }

    /// Lets pushes in flight finish, then closes the connections.
    func shutdown() async
}

extension PushSender {
    public var statistics: PushSenderStatistics? { nil }
    public var labels: PushSenderLabels { PushSenderLabels() }
}
