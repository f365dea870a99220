/// How a sender on an `async` client (FCM's, HMS's) serves `PushSender.submit`: the send runs in
/// a task of its own, timed from its start, with what is left of the push's life as its TTL; its
/// answer or failure is classified by the sender and handed to the completion.
public struct AsyncPushSend<Answer: Sendable>: Sendable {
    /// Unix ms, for the TTL and for "registered before the send".
    public let clock: @Sendable () -> Int64
    /// One send, given the TTL in seconds (at least 1).
    public let send: @Sendable (_ ttlSeconds: Int64) async throws -> Answer
    public let answered: @Sendable (_ answer: Answer, _ startedAtMs: Int64, _ latency: Duration) -> PushSendResult
    public let failed: @Sendable (any Error) -> PushSendResult

    public init(
        clock: @escaping @Sendable () -> Int64, send: @escaping @Sendable (_ ttlSeconds: Int64) async throws -> Answer,
        answered: @escaping @Sendable (_ answer: Answer, _ startedAtMs: Int64, _ latency: Duration) -> PushSendResult,
        failed: @escaping @Sendable (any Error) -> PushSendResult
    ) {
        self.clock = clock
        self.send = send
        self.answered = answered
        self.failed = failed
    }

    public func submit(_ push: OutgoingPush, completion: @escaping @Sendable (PushSendResult) -> Void) -> PushSendHandle {
        let task = Task {
            let startedAtMs = clock()
            let started = ContinuousClock.now
            do {
                let answer = try await send(max(1, (push.expiresAtMs - startedAtMs) / 1000))
                completion(answered(answer, startedAtMs, ContinuousClock.now - started))
            } catch {
                completion(failed(error))
            }
        }
        return PushSendHandle { task.cancel() }
    }
}
