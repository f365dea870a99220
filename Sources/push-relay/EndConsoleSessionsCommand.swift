import ArgumentParser
import Foundation
import Logging
import PushService
import PushStore
import StoreContract

/// `push-relay end-console-sessions --config PATH (--user NAME | --app ID)`: ends console
/// sessions in the database the relays share (as `DELETE /v3/console/sessions` does), for an
/// operator on the host.
struct EndConsoleSessionsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "end-console-sessions",
        abstract: "End every console session of a console user, or of an app.",
        discussion: """
            Ends, on every relay of the database at once, every console session of a console user \
            (--user: a name under console.users; all their apps), or every session signed in with \
            an app's API tokens or showing the app (--app). Signing in again works as before; to \
            keep someone out, change or remove their secret (that alone also ends their sessions \
            at their next request). Prints how many sessions ended. It may run while the relay \
            serves the same database.

            Exit status: 0 done (also when none was open); 64 usage error (neither or both of \
            --user and --app, an unknown --app); 74 the database cannot be opened (or there is no \
            SQLite file yet); 78 the configuration file is invalid.
            """
    )

    @Option(name: .long, help: "Path of the YAML configuration file.")
    var config: String

    @Option(name: .long, help: "A console user's name (console.users[].name).")
    var user: String?

    @Option(name: .long, help: "An app (apps[].app_id): sessions signed in with its API tokens or showing it.")
    var app: String?

    func validate() throws {
        guard (user == nil) != (app == nil) else { throw ValidationError("give one of --user and --app") }
    }

    func run() async throws {
        try await reportingUsageErrors { try await end() }
    }

    private func end() async throws {
        let configuration: RelayConfiguration
        do {
            configuration = try RelayConfiguration.load(path: config)
        } catch {
            Self.fail("\(error)", code: 78)
        }
        if let app, !configuration.apps.contains(where: { $0.appID == app }) {
            throw ValidationError("--app: \(config) has no app \(app)")
        }
        var logger = Logger(label: "push-relay.end-console-sessions")
        logger.logLevel = .error
        let store: any RelayStore
        do {
            store = try await SideStore.open(configuration.database, nodeID: "end-console-sessions", logger: logger)
        } catch {
            Self.fail(error.message, code: error.exitCode)
        }
        let ended: Int
        do {
            ended = try await ConsoleSessionRemoval.end(user: user, app: app, in: store)
        } catch {
            try? await store.close()
            Self.fail(store.describe(error), code: 74)
        }
        try? await store.close()
        print("\(ended) console session(s) ended")
    }

    private static func fail(_ message: String, code: Int32) -> Never {
        FileHandle.standardError.write(Data("push-relay end-console-sessions: \(message)\n".utf8))
        Foundation.exit(code)
    }
}
