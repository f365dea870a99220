import PushCore

/// What a provider's device tokens look like: checked at registration, in test pushes and in
/// device reports, and brought to the form the store keeps.
public protocol DeviceTokenFormat: Sendable {
    /// The token as stored, or what is wrong with the text.
    func normalise(_ text: String) -> Result<String, TokenFormatProblem>

    /// The token a registration body's field (`ProviderDescription.tokenField`) carries when it
    /// is not a string (Web Push's subscription object); nil: the field must be a string, which
    /// `normalise` reads.
    func token(registering value: JSONValue) -> Result<String, TokenFormatProblem>?

    /// The longest token a path carries, in bytes.
    var maximumBytes: Int { get }

    /// What registration refuses of a well-formed token when the app has no settings for the
    /// provider (with settings, `ProviderSettings.refusal(of:)` decides); nil: taken.
    func defaultRefusal(of token: String) -> TokenFormatProblem?
}

extension DeviceTokenFormat {
    public func token(registering value: JSONValue) -> Result<String, TokenFormatProblem>? { nil }

    public func defaultRefusal(of token: String) -> TokenFormatProblem? { nil }

    /// An id's length (`IdentifierRules.maximumBytes`).
    public var maximumBytes: Int { IdentifierRules.maximumBytes }
}

/// Why a text is not a provider's token, as a phrase that follows "it" ("must be 16 to 200 hex
/// digits (got 3 characters)").
public struct TokenFormatProblem: Error, Sendable, Hashable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}
