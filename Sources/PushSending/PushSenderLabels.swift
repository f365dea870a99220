/// The metric label values a sender's answers can carry where a dashboard divides by them: the
/// reasons it removes a device token for and the reasons it reports refused credentials with.
/// The relay exports `pushrelay_token_removals_total` and `pushrelay_credential_errors_total` at 0
/// for each, so a quiet app's panels read 0 rather than "No data".
public struct PushSenderLabels: Sendable, Hashable {
    public var tokenRemovalReasons: [String]
    public var credentialErrorReasons: [String]

    public init(tokenRemovalReasons: [String] = [], credentialErrorReasons: [String] = []) {
        self.tokenRemovalReasons = tokenRemovalReasons
        self.credentialErrorReasons = credentialErrorReasons
    }
}
