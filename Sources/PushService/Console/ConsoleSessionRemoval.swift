import PushStore
import StoreContract

/// Ending console sessions in bulk, as `push-relay end-console-sessions` asks: a console user's
/// (by name), or an app's (signed in with its API tokens or showing it). `DELETE
/// /v3/console/sessions` does the same for an app's master token.
public enum ConsoleSessionRemoval {
    public static func end(user: String?, app: String?, in store: any RelayStore) async throws -> Int {
        var ended = 0
        if let user { ended += try await store.removeConsoleSessions(identityKind: ConsoleIdentity.userKind, identityName: user) }
        if let app { ended += try await store.removeConsoleSessions(app: app, apiTokenKind: ConsoleIdentity.apiTokenKind) }
        return ended
    }
}
