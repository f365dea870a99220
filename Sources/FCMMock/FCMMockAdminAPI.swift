import MockSupport

/// The admin control surface: plaintext HTTP/1.1 on 127.0.0.1 (`FCMMockConfiguration.adminPort`),
/// JSON in and out, for the `fcm-mock` executable and out-of-process test harnesses: the routes
/// `MockAdminControl` lists, with `FCMMockStats`, `RecordedMessage` and `FCMMockFaults`, where
///
/// - `POST /unregister` `{"tokens": ["…"]}`: those tokens are answered 404 `UNREGISTERED`;
/// - `POST /expire-tokens`: every access token issued so far is answered 401.
enum FCMMockAdminAPI {
    static func routes(core: FCMMockCore) -> AdminRoutes {
        core.adminRoutes(markingPath: "/unregister") { core.markUnregistered($0) }
    }
}
