import MockSupport

/// The admin control surface: plaintext HTTP/1.1 on 127.0.0.1 (`HMSMockConfiguration.adminPort`),
/// JSON in and out, for the `hms-mock` executable and out-of-process test harnesses: the routes
/// `MockAdminControl` lists, with `HMSMockStats`, `RecordedMessage` and `HMSMockFaults`, where
///
/// - `GET /faults` lists the invalid tokens too, and `DELETE /faults` leaves them invalid;
/// - `POST /invalid-tokens` `{"tokens": ["…"]}`: those tokens are illegal (80300007 / 80100000);
/// - `POST /expire-tokens`: every access token issued so far is answered 80200003.
enum HMSMockAdminAPI {
    static func routes(core: HMSMockCore) -> AdminRoutes {
        core.adminRoutes(markingPath: "/invalid-tokens") { core.markInvalid($0) }
    }
}
