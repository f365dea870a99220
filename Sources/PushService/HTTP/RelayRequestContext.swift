import Hummingbird

/// The request context of every route: Hummingbird's core storage plus who the request comes
/// from (set by `AuthenticationMiddleware`; `nil` on unauthenticated routes).
public struct RelayRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The authenticated caller: an app's server or one of its users.
    public var caller: Caller?

    public init(source: ApplicationRequestContextSource) {
        coreContext = CoreRequestContextStorage(source: source)
        caller = nil
    }

    /// The authenticated app, whoever the caller is.
    public var app: AppConfiguration? { caller?.app }
}
