import MockSupport

/// What each request gets, on an HTTP/2 stream or an HTTP/1.1 connection: the token endpoint or
/// `messages:send`, or Huawei's 404 / 405, after the armed delay if any. `MockRequestHandler` reads
/// the request and writes the answer.
extension HMSMockCore: MockResponder {
    static let tokenPath = "/oauth2/v3/token"

    func respond(to request: MockRequest) -> MockReply<HMSMockAnswer> {
        if shared.takeSilence({ $0.faults.takeSilence() }) { return .silence }
        let delay = requestReceived(on: request.httpVersion)
        return .answer(route(request), delayMilliseconds: delay)
    }

    private func route(_ request: MockRequest) -> HMSMockAnswer {
        let path = request.path
        if path == Self.tokenPath {
            guard request.head.method == .POST else { return .methodNotAllowed(path) }
            return issueToken(body: request.body)
        }
        guard let appID = request.pathSegment(between: "/v1/", and: "/messages:send") else { return .notFound(path) }
        guard request.head.method == .POST else { return .methodNotAllowed(path) }
        if request.bodyTooLarge { return .result(.messageTooLarge, requestID: makeRequestID()) }
        return send(appID: appID, request: request)
    }

    func answered(_ answer: HMSMockAnswer) {
        shared.withLock { state in
            state.stats.counters.answered(status: answer.status)
            if let code = answer.code { state.stats.responsesByCode[code.rawValue, default: 0] += 1 }
        }
    }
}
