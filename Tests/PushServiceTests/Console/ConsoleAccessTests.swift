import ConfigSupport
import Foundation
import Logging
import Testing

@testable import PushService
@testable import PushStore
@testable import StoreContract

/// A console user's session is tied to the secret it signed in with: the same secret keeps it, a
/// changed or removed one ends it, and a session stored before secrets were fingerprinted cannot
/// be tied to one and ends.
@Suite(.timeLimit(.minutes(1))) struct ConsoleAccessTests {
    static func access(_ users: [ConsoleConfiguration.User]) async throws -> (ConsoleAccess, CredentialDirectory) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("console-access-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let store = try SQLiteStore(path: directory.appendingPathComponent("r.sqlite").path)
        let credentials = try await CredentialDirectory.load(
            store: store, maximumSessionLifetime: AppLimits.defaultMaxSessionLifetime, logger: Logger(label: "test"))
        let access = ConsoleAccess(
            apps: AppRegistry(apps: [TestApps.a]), credentials: credentials,
            users: ConsoleUsers(users, keys: credentials.sessionTokens))
        return (access, credentials)
    }

    @Test func aRotatedOrRemovedSecretEndsTheUsersSessions() async throws {
        let old = ConsoleConfiguration.User(name: "ops", secret: Secret("ops-secret-0123456789"))
        let (access, _) = try await Self.access([old])
        guard case .signedIn(let identity, let app) = access.signIn(name: "ops", secret: "ops-secret-0123456789") else {
            throw TestFailure("no sign-in")
        }
        #expect(access.check(identity, app: app) == .valid)
        access.consoleUsers.replace(with: [.init(name: "ops", secret: Secret("ops-secret-0123456789"))])
        #expect(access.check(identity, app: app) == .valid, "the same secret keeps it")
        access.consoleUsers.replace(with: [.init(name: "ops", secret: Secret("a-new-secret-9876543210"))])
        #expect(access.check(identity, app: app) == .revoked, "a rotated secret ends it")
        #expect(access.signIn(name: "ops", secret: "ops-secret-0123456789") == .refused)
        access.consoleUsers.replace(with: [old])
        #expect(access.check(identity, app: app) == .valid)
        access.consoleUsers.replace(with: [])
        #expect(access.check(identity, app: app) == .revoked, "a removed user's sessions end")
    }

    /// What the session table keeps is a keyed fingerprint, never the secret or its plain hash.
    @Test func theStoredFingerprintIsKeyedAndTheLegacyFormEnds() async throws {
        let (access, _) = try await Self.access([.init(name: "ops", secret: Secret("ops-secret-0123456789"))])
        guard case .signedIn(let identity, _) = access.signIn(name: "ops", secret: "ops-secret-0123456789") else {
            throw TestFailure("no sign-in")
        }
        let stored = identity.stored
        #expect(stored.kind == "user" && stored.name == "ops")
        #expect(stored.digest != nil)
        #expect(stored.digest.map(Array.init) != AppRegistry.digest("ops-secret-0123456789"))
        #expect(ConsoleIdentity(kind: "user", name: "ops", digest: nil) == nil, "a session stored before fingerprints ends")
        #expect(ConsoleIdentity(kind: stored.kind, name: stored.name, digest: stored.digest) == identity)
    }
}
