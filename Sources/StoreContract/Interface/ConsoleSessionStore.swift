import Foundation

/// The console's sessions, in the database so that every relay of a fleet knows each one: a
/// browser signed in on one relay is signed in on all, and signed out of all at once.
public protocol ConsoleSessionStore: Sendable {
    /// Stores a session under `key` (the SHA-256 of its cookie). When `maximum` are stored, the
    /// ended ones (`cutoff`) go first; if the table is still full, the session seen longest ago
    /// of the identity (kind and name) holding the most goes, so one app signing in again and
    /// again evicts its own sessions, not another app's.
    func addConsoleSession(key: Data, _ session: StoredConsoleSession, maximum: Int, cutoff: ConsoleSessionCutoff) async throws
    /// The session under `key`, ended or not; nil when there is none.
    func consoleSession(key: Data) async throws -> StoredConsoleSession?
    /// Records a request of the session at `atMs`.
    func touchConsoleSession(key: Data, atMs: Int64) async throws
    /// Changes the app the session shows.
    func switchConsoleSession(key: Data, toApp app: String) async throws
    /// Ends the session (sign-out, or found ended).
    func removeConsoleSession(key: Data) async throws
    /// Ends every session of one identity (`identityKind` and `identityName`: a console user by
    /// name, an app's API tokens by the app); returns how many there were.
    @discardableResult
    func removeConsoleSessions(identityKind: String, identityName: String) async throws -> Int
    /// Ends every session signed in with `app`'s API tokens or showing `app`; returns how many.
    @discardableResult
    func removeConsoleSessions(app: String, apiTokenKind: String) async throws -> Int
    /// Deletes the sessions ended by `cutoff`; returns how many.
    @discardableResult
    func pruneConsoleSessions(cutoff: ConsoleSessionCutoff) async throws -> Int
}
