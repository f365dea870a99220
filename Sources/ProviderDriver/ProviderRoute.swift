import Foundation
import PushCore
import PushSending

/// A provider's sender for one app, as its settings built it, with what the dispatcher stores
/// its deliveries with and what `check-config` reports about it.
public struct ProviderRoute: Sendable {
    public var provider: PushProvider
    public var sender: any PushSender
    /// What the planner builds for its devices.
    public var format: PayloadFormat
    /// The push type and priority its deliveries are stored with (APNs: the app's `alert` or
    /// `background` and 10 or 5; the others their own name and 10).
    public var pushType: String
    public var priority: Int
    /// When its credential ends, if it says (an APNs client certificate).
    public var certificateNotAfter: Date?
    /// `check-config`'s line on what was loaded (no secret in it).
    public var summary: String
    /// `check-config --probe`: one request that proves the credentials, made on demand.
    public var probe: @Sendable () async -> ProbeFinding
    /// Its broadcast channels' management, when it has them (APNs with a token key).
    public var broadcastChannels: (any BroadcastChannelService)?

    public init(
        provider: PushProvider, sender: any PushSender, format: PayloadFormat, pushType: String, priority: Int = 10,
        certificateNotAfter: Date? = nil, summary: String = "",
        probe: @escaping @Sendable () async -> ProbeFinding = { ProbeFinding(ok: true, message: "no probe") }
    ) {
        self.provider = provider
        self.sender = sender
        self.format = format
        self.pushType = pushType
        self.priority = priority
        self.certificateNotAfter = certificateNotAfter
        self.summary = summary
        self.probe = probe
    }
}

/// What a provider answered to `check-config --probe`.
public struct ProbeFinding: Sendable, Hashable {
    /// The provider accepted the credentials.
    public var ok: Bool
    public var message: String

    public init(ok: Bool, message: String) {
        self.ok = ok
        self.message = message
    }
}
