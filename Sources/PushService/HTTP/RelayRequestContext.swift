import Hummingbird

/// The request context of every route: Hummingbird's core storage plus the app the `Api-Token`
/// header authenticated (set by `APITokenMiddleware`; `nil` on unauthenticated routes).
public struct RelayRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The authenticated app.
    public var app: AppConfiguration?

    public init(source: ApplicationRequestContextSource) {
        coreContext = CoreRequestContextStorage(source: source)
        app = nil
    }

    /// The authenticated app; routes behind `APITokenMiddleware` always have one.
    func requireApp() throws(APIError) -> AppConfiguration {
        guard let app else { throw APIError.invalidAPIToken }
        return app
    }
}
