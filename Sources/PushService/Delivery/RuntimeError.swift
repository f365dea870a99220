import PushCore

/// Why the service could not build an app's clients from a valid configuration: a provider's
/// key or certificate could not be loaded, or its client made (an unreadable CA file, …).
public struct RuntimeError: Error, Sendable, CustomStringConvertible {
    public var appID: String
    public var provider: PushProvider
    /// What went wrong, without the app (for a line that names it already), starting with the
    /// setting at fault (`apns.auth: …`).
    public var detail: String

    public var description: String { "app \(appID): \(detail)" }
}
