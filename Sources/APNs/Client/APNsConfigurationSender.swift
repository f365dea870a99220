import PushSending
import Synchronization

/// An app's several APNs configurations behind one sender: a push goes through its token's
/// configuration (`OutgoingPush.configuration`; the default when it names none, or one no
/// longer configured). A token that configuration answers `BadDeviceToken` for is tried once
/// through the other environment's configuration of the same topic (`fallbacks`): a debug
/// build's sandbox token registered without a configuration is delivered there, and the result
/// names that configuration so the token is moved to it instead of removed.
public struct APNsConfigurationSender: PushSender {
    public let senders: [String: APNsSender]
    public let defaultName: String
    /// Configuration → the one to try after its `BadDeviceToken`.
    public let fallbacks: [String: String]

    public init(senders: [String: APNsSender], defaultName: String, fallbacks: [String: String]) {
        precondition(senders[defaultName] != nil, "the default configuration has a sender")
        self.senders = senders
        self.defaultName = defaultName
        self.fallbacks = fallbacks
    }

    @discardableResult
    public func submit(_ push: OutgoingPush, timeout: Duration, completion: @escaping @Sendable (PushSendResult) -> Void)
        -> PushSendHandle
    {
        let name = push.configuration.flatMap { senders[$0] == nil ? nil : $0 } ?? defaultName
        guard let fallback = fallbacks[name], let second = senders[fallback] else {
            return senders[name]!.submit(push, timeout: timeout, completion: completion)
        }
        let current = CurrentHandle()
        current.replace(
            senders[name]!.submit(push, timeout: timeout) { result in
                guard result.reason == APNsReason.badDeviceToken.rawValue else { return completion(result) }
                current.replace(
                    second.submit(push, timeout: timeout) { retried in
                        completion(Self.merged(first: result, second: retried, from: name, to: fallback))
                    })
            })
        return PushSendHandle { current.cancel() }
    }

    /// The answer of the second try as the push's: delivered there, the token moves; the same
    /// `BadDeviceToken` there, the token is dead for both; anything else is that answer.
    static func merged(first: PushSendResult, second: PushSendResult, from: String, to: String) -> PushSendResult {
        guard case .delivered = second.outcome else { return second }
        var result = second
        result.tokenConfiguration = to
        result.error = "sent through the app's APNs configuration \"\(to)\": \"\(from)\" answered \(first.reason ?? "BadDeviceToken")"
        return result
    }

    public var statistics: PushSenderStatistics? {
        let all = senders.values.compactMap(\.statistics)
        return PushSenderStatistics(
            connections: all.reduce(0) { $0 + $1.connections }, readyConnections: all.reduce(0) { $0 + $1.readyConnections },
            inFlight: all.reduce(0) { $0 + $1.inFlight }, queued: all.reduce(0) { $0 + $1.queued })
    }

    public func shutdown() async {
        for sender in senders.values { await sender.shutdown() }
    }

    public var labels: PushSenderLabels { senders[defaultName]!.labels }
}

/// The handle of whichever try is under way, so a cancel reaches the second one too.
private final class CurrentHandle: Sendable {
    private let state = Mutex<(handle: PushSendHandle?, cancelled: Bool)>((nil, false))

    func replace(_ handle: PushSendHandle) {
        let cancelled = state.withLock { state in
            state.handle = handle
            return state.cancelled
        }
        if cancelled { handle.cancel() }
    }

    func cancel() {
        let handle = state.withLock { state in
            state.cancelled = true
            return state.handle
        }
        handle?.cancel()
    }
}
