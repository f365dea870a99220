import MockSupport

/// What each request on an HTTP/2 stream gets: the token endpoint or `messages:send`, or Google's
/// error for anything else. `MockRequestHandler` reads the request and writes the answer.
extension FCMMockCore: MockResponder {
    func respond(to request: MockRequest) -> MockReply<FCMMockAnswer> {
        if shared.takeSilence({ $0.faults.takeSilence() }) { return .silence }
        let path = request.path
        if request.bodyTooLarge {
            return .answer(.fcmError(status: 413, apiStatus: "INVALID_ARGUMENT", message: "Request payload size exceeds the limit."))
        }
        if path == "/token" {
            guard request.head.method == .POST else {
                return .answer(.oauthError(status: 405, "invalid_request", "The token endpoint takes POST."))
            }
            return .answer(exchangeToken(body: request.body))
        }
        guard let project = request.pathSegment(between: "/v1/projects/", and: "/messages:send") else {
            return .answer(.notFound(path))
        }
        guard request.head.method == .POST else {
            return .answer(.fcmError(status: 405, apiStatus: "INVALID_ARGUMENT", message: "messages:send takes POST."))
        }
        return send(
            project: project, authorization: request.header("authorization"), body: request.body, connectionID: request.connectionID)
    }

    func answered(_ answer: FCMMockAnswer) {
        shared.withLock { $0.stats.counters.answered(status: answer.status) }
    }
}
