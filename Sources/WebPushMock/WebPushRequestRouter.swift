import MockSupport

/// What each request gets: `POST /push/{id}`, or 404 / 405, after the armed delay if any.
extension WebPushMockCore: MockResponder {
    func respond(to request: MockRequest) -> MockReply<WebPushMockAnswer> {
        if shared.takeSilence({ $0.faults.takeSilence() }) { return .silence }
        let delay = shared.withLock { $0.faults.delayMs }
        let path = request.path
        guard path.hasPrefix("/push/"), path.count > "/push/".count else {
            return .answer(.error(404, "no push service at \(path.prefix(200))"))
        }
        guard request.head.method == .POST else { return .answer(.error(405, "\(path.prefix(200)) takes POST")) }
        let id = String(path.dropFirst("/push/".count))
        return .answer(push(to: id, request: request, origin: origin(of: request)), delayMilliseconds: delay)
    }

    /// The origin the client addressed (VAPID's audience must name it).
    private func origin(of request: MockRequest) -> String {
        let host = request.header("host") ?? request.header(":authority") ?? "\(configuration.host):\(configuration.port)"
        return "https://\(host)"
    }

    func answered(_ answer: WebPushMockAnswer) {
        shared.withLock { $0.stats.counters.answered(status: answer.status) }
    }
}
