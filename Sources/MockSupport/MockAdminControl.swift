/// What the admin APIs of fcm-mock and hms-mock control alike, and the routes that reach it:
///
/// | Request | Body | Answer |
/// |---|---|---|
/// | `GET /stats` | — | 200, the stats (snake_case) |
/// | `GET /messages?since=N` | — | 200, JSON array of the recorded messages from index N (default 0) |
/// | `GET /faults` | — | 200, what is still armed (`armedFaults`) |
/// | `POST /faults` | `Faults` | 204 |
/// | `DELETE /faults` | — | 204 |
/// | `POST <marking path>` | `{"tokens": ["…"]}` | 204: those device tokens are marked (each mock says how) |
/// | `POST /expire-tokens` | — | 204: every access token issued so far expires |
/// | `POST /reset` | — | 204 |
///
/// Errors: 400/404/405 with `{"error":"<what is wrong>"}`.
package protocol MockAdminControl: Sendable {
    associatedtype State: MockState
    /// What `POST /faults` arms and `GET /faults` lists.
    associatedtype Faults: Codable & Sendable

    var shared: SharedMockState<State> { get }
    var armedFaults: Faults { get }
    func arm(_ faults: Faults)
    func clearFaults()
}

extension MockAdminControl {
    package var stats: State.Stats { shared.stats }
    package var records: [State.Record] { shared.records }

    /// Forgets records, faults, marked tokens and counters (open connections stay counted).
    package func reset() { shared.reset() }

    package func expireAccessTokens() { shared.expireAccessTokens() }

    /// The routes above and a mock's `own`; `mark` marks the tokens posted to `markingPath`.
    package func adminRoutes(
        markingPath: String, own: [AdminRoutes.Route] = [], mark: @escaping @Sendable ([String]) -> Void
    ) -> AdminRoutes {
        AdminRoutes(
            own + [
                .init(.GET, "/stats") { _ in .json(self.stats) },
                .init(.GET, "/messages") { $0.page(of: self.records) },
                .init(.GET, "/faults") { _ in .json(self.armedFaults) },
                .init(.POST, "/faults") { $0.applying(Faults.self, refusal: "body is not a set of faults") { self.arm($0) } },
                .command(.DELETE, "/faults") { self.clearFaults() },
                .init(.POST, markingPath) {
                    $0.applying(TokensRequest.self, refusal: "body must be {\"tokens\":[…]}") { mark($0.tokens) }
                },
                .command(.POST, "/expire-tokens") { self.expireAccessTokens() },
                .command(.POST, "/reset") { self.reset() },
            ])
    }
}

/// The body of a route that marks device tokens.
private struct TokensRequest: Decodable {
    var tokens: [String]
}
