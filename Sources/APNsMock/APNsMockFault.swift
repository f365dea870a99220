/// A scripted misbehaviour of the mock, described as data so it can also travel as JSON through
/// the admin endpoint (`POST /faults`).
///
/// Several faults may be armed at once. Count-limited ones disarm themselves when used up; faults
/// of the same kind queue up (the second `goAway` starts counting once the first has fired).
///
/// JSON shape: an object with a `kind` and the case's fields, for example
/// `{"kind":"goAway","afterStreams":3,"reason":"Shutdown"}`,
/// `{"kind":"maxConcurrentStreams","value":1}`, `{"kind":"refuseStreams","count":2}`,
/// `{"kind":"neverAnswer","count":1}`, `{"kind":"dropConnection","afterStreams":1}`,
/// `{"kind":"status","code":429,"reason":"TooManyRequests","count":1,"retryAfterSeconds":30}`,
/// `{"kind":"tlsHandshakeFailure","count":1}`, `{"kind":"delay","milliseconds":250}`,
/// `{"kind":"expireProviderTokens"}`, `{"kind":"silentConnection","count":1}`.
public enum APNsMockFault: Sendable, Codable, Equatable, CustomStringConvertible {
    /// Once `afterStreams` more streams have arrived (on any connection), the connection that got
    /// the last of them sends GOAWAY(lastStreamID = that stream, NO_ERROR, `{"reason":…}`),
    /// answers the streams up to lastStreamID, ignores higher ones and then closes. With
    /// `afterStreams: 0` it fires on the next stream, which is then itself left unanswered.
    case goAway(afterStreams: Int, reason: String)
    /// Advertise this SETTINGS_MAX_CONCURRENT_STREAMS on every open connection and on new ones
    /// (overriding the token-auth warm-up) until the faults are cleared.
    case maxConcurrentStreams(Int)
    /// The next `count` streams are reset with REFUSED_STREAM before being looked at.
    case refuseStreams(count: Int)
    /// The next `count` streams are never answered nor reset.
    case neverAnswer(count: Int)
    /// When the `afterStreams`-th request from now is complete (0 counts as 1), its connection is
    /// closed abruptly (TCP RST, no GOAWAY, no TLS close_notify) with its open requests unanswered.
    case dropConnection(afterStreams: Int)
    /// The next `count` complete requests are answered with this status and `{"reason":…}`, plus a
    /// `retry-after` header when `retryAfterSeconds` is set. Nothing is recorded for them.
    case status(code: Int, reason: String, count: Int, retryAfterSeconds: Int?)
    /// The next `count` accepted TCP connections are closed before the TLS handshake.
    case tlsHandshakeFailure(count: Int)
    /// Every answer is sent this much later while the fault is armed.
    case delay(milliseconds: Int)
    /// Every provider token accepted so far is from now on answered 403 `ExpiredProviderToken`
    /// (a newly minted JWT is still accepted). Takes effect at once; ``APNsMockServer/reset()``
    /// forgets it, ``APNsMockServer/clearFaults()`` does not.
    case expireProviderTokens
    /// The connections of the next `count` complete requests go silent as each request completes:
    /// they read and send nothing more (no answer, no PING ACK) and stay open until the client
    /// closes them (`ConnectionSilencer`).
    case silentConnection(count: Int)

    public var description: String {
        switch self {
        case .goAway(let afterStreams, let reason): "goAway(afterStreams: \(afterStreams), reason: \(reason))"
        case .maxConcurrentStreams(let value): "maxConcurrentStreams(\(value))"
        case .refuseStreams(let count): "refuseStreams(count: \(count))"
        case .neverAnswer(let count): "neverAnswer(count: \(count))"
        case .dropConnection(let afterStreams): "dropConnection(afterStreams: \(afterStreams))"
        case .status(let code, let reason, let count, let retryAfter):
            "status(code: \(code), reason: \(reason), count: \(count), retryAfterSeconds: \(retryAfter.map(String.init) ?? "nil"))"
        case .tlsHandshakeFailure(let count): "tlsHandshakeFailure(count: \(count))"
        case .delay(let milliseconds): "delay(milliseconds: \(milliseconds))"
        case .expireProviderTokens: "expireProviderTokens"
        case .silentConnection(let count): "silentConnection(count: \(count))"
        }
    }

    private enum CodingKeys: String, CodingKey {
        case kind, afterStreams, reason, value, count, code, retryAfterSeconds, milliseconds
    }

    private enum Kind: String, Codable {
        case goAway, maxConcurrentStreams, refuseStreams, neverAnswer, dropConnection, status
        case tlsHandshakeFailure, delay, expireProviderTokens, silentConnection
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let kindName = try container.decode(String.self, forKey: .kind)
        guard let kind = Kind(rawValue: kindName) else {
            throw DecodingError.dataCorruptedError(
                forKey: .kind,
                in: container,
                debugDescription: "unknown fault kind \"\(kindName)\""
            )
        }
        switch kind {
        case .goAway:
            self = .goAway(
                afterStreams: try container.decode(Int.self, forKey: .afterStreams),
                reason: try container.decodeIfPresent(String.self, forKey: .reason) ?? "Shutdown"
            )
        case .maxConcurrentStreams:
            self = .maxConcurrentStreams(try container.decode(Int.self, forKey: .value))
        case .refuseStreams:
            self = .refuseStreams(count: try container.decode(Int.self, forKey: .count))
        case .neverAnswer:
            self = .neverAnswer(count: try container.decode(Int.self, forKey: .count))
        case .dropConnection:
            self = .dropConnection(afterStreams: try container.decode(Int.self, forKey: .afterStreams))
        case .status:
            self = .status(
                code: try container.decode(Int.self, forKey: .code),
                reason: try container.decode(String.self, forKey: .reason),
                count: try container.decodeIfPresent(Int.self, forKey: .count) ?? 1,
                retryAfterSeconds: try container.decodeIfPresent(Int.self, forKey: .retryAfterSeconds)
            )
        case .tlsHandshakeFailure:
            self = .tlsHandshakeFailure(count: try container.decode(Int.self, forKey: .count))
        case .delay:
            self = .delay(milliseconds: try container.decode(Int.self, forKey: .milliseconds))
        case .expireProviderTokens:
            self = .expireProviderTokens
        case .silentConnection:
            self = .silentConnection(count: try container.decodeIfPresent(Int.self, forKey: .count) ?? 1)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .goAway(let afterStreams, let reason):
            try container.encode(Kind.goAway, forKey: .kind)
            try container.encode(afterStreams, forKey: .afterStreams)
            try container.encode(reason, forKey: .reason)
        case .maxConcurrentStreams(let value):
            try container.encode(Kind.maxConcurrentStreams, forKey: .kind)
            try container.encode(value, forKey: .value)
        case .refuseStreams(let count):
            try container.encode(Kind.refuseStreams, forKey: .kind)
            try container.encode(count, forKey: .count)
        case .neverAnswer(let count):
            try container.encode(Kind.neverAnswer, forKey: .kind)
            try container.encode(count, forKey: .count)
        case .dropConnection(let afterStreams):
            try container.encode(Kind.dropConnection, forKey: .kind)
            try container.encode(afterStreams, forKey: .afterStreams)
        case .status(let code, let reason, let count, let retryAfterSeconds):
            try container.encode(Kind.status, forKey: .kind)
            try container.encode(code, forKey: .code)
            try container.encode(reason, forKey: .reason)
            try container.encode(count, forKey: .count)
            try container.encodeIfPresent(retryAfterSeconds, forKey: .retryAfterSeconds)
        case .tlsHandshakeFailure(let count):
            try container.encode(Kind.tlsHandshakeFailure, forKey: .kind)
            try container.encode(count, forKey: .count)
        case .delay(let milliseconds):
            try container.encode(Kind.delay, forKey: .kind)
            try container.encode(milliseconds, forKey: .milliseconds)
        case .expireProviderTokens:
            try container.encode(Kind.expireProviderTokens, forKey: .kind)
        case .silentConnection(let count):
            try container.encode(Kind.silentConnection, forKey: .kind)
            try container.encode(count, forKey: .count)
        }
    }
}
