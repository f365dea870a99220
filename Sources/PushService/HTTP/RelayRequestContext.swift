import Foundation
import Hummingbird
import NIOCore

/// The request context of every route: Hummingbird's core storage plus who the request comes
/// from (set by `AuthenticationMiddleware`; `nil` on unauthenticated routes).
public struct RelayRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The authenticated caller: an app's server or one of its users.
    public var caller: Caller?
    /// The peer's IP address (the console's sign-in limit and its trust of a proxy's headers).
    public let remoteIP: String?

    public init(source: ApplicationRequestContextSource) {
        coreContext = CoreRequestContextStorage(source: source)
        caller = nil
        remoteIP = source.channel.remoteAddress?.ipAddress
    }

    /// The authenticated app, whoever the caller is.
    public var app: AppConfiguration? { caller?.app }

    /// Every JSON answer (handlers return `ResponseEncodable` bodies) goes through this encoder.
    public var responseEncoder: JSONEncoder { Self.jsonEncoder }

    /// Keys sorted (stable to read in logs and to diff in tests), slashes as they are.
    static let jsonEncoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()
}
