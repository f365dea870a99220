/// A request-level mock's own part: what each request gets. `MockRequestHandler` does the I/O.
package protocol MockResponder: Sendable {
    associatedtype Answer: MockHTTPAnswer
    func respond(to request: MockRequest) -> MockReply<Answer>
    /// `answer` is being written: counted then, so a delayed answer whose connection closed first
    /// is not.
    func answered(_ answer: Answer)
}

/// What a request gets.
package enum MockReply<Answer: MockHTTPAnswer>: Sendable {
    /// An answer, written after `delayMilliseconds` when set (a delay fault).
    case answer(Answer, delayMilliseconds: Int? = nil)
    /// No answer: the connection (an HTTP/2 stream's whole connection) closes, as a front end
    /// going away would close it.
    case dropConnection
    /// No answer: the connection goes silent and stays open (`ConnectionSilencer`).
    case silence
}
