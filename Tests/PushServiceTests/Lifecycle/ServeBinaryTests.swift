import Foundation
import TestSupport
import Testing
#if canImport(Glibc)
    import Glibc
#endif
@testable import PushService

/// The real `push-relay serve` binary: sd_notify, SIGHUP reload and a graceful SIGTERM.
@Suite(.serialized, .timeLimit(.minutes(5))) struct ServeBinaryTests {
    static func get(_ port: Int, _ path: String) async throws -> String {
        try await RawHTTP.exchange(port: port, Array("GET \(path) HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".utf8))
    }

    @Test func notifiesReadyReloadsOnSIGHUPAndExitsZeroOnSIGTERM() async throws {
        let directory = try TemporaryDirectory()
        let config = try directory.write("relay.yaml", tokenAppYAML(database: directory.path("relay.sqlite")))
        let socket = try NotifySocket(path: directory.path("notify"))
        let relay = try RelayProcess(
            ["serve", "--config", config], environment: ["NOTIFY_SOCKET": socket.address, "WATCHDOG_USEC": "400000"])
        defer { relay.stop() }

        let ready = try #require(await socket.receive(until: "READY=1"), "no READY=1; stderr: \(relay.stderr)")
        #expect(ready.joined().contains("STATUS="))
        let port = try #require(await relay.listeningPort(), "no listening line: \(relay.stderr)")
        #expect(try await Self.get(port, "/health").contains(#"{"status":"ok"}"#))
        // umask 077 at start: the database the relay created is its own, whatever the caller's umask.
        for file in ["relay.sqlite", "relay.sqlite-wal", "relay.sqlite.lock"] {
            let mode = try #require(FileManager.default.attributesOfItem(atPath: directory.path(file))[.posixPermissions] as? Int)
            #expect(mode & 0o077 == 0, "\(file) is \(String(mode, radix: 8))")
        }
        // WATCHDOG_USEC=400000: pings every 200 ms.
        #expect(await socket.receive(until: "WATCHDOG=1") != nil)

        // A broken file on SIGHUP: logged, the running configuration stays.
        try "listen: {bogus: 1}".write(toFile: config, atomically: true, encoding: .utf8)
        relay.signal(SIGHUP)
        #expect(await eventually(within: 30) { relay.stderr.contains("reload failed, keeping the running configuration") })
        #expect(relay.process.isRunning)
        #expect(try await Self.get(port, "/ready").contains(#"{"status":"ready"}"#))

        // A valid one is applied.
        try tokenAppYAML(database: directory.path("relay.sqlite")).write(toFile: config, atomically: true, encoding: .utf8)
        relay.signal(SIGHUP)
        #expect(await eventually(within: 30) { relay.stderr.contains("configuration reloaded") }, "stderr: \(relay.stderr)")

        relay.signal(SIGTERM)
        #expect(await socket.receive(until: "STOPPING=1") != nil)
        #expect(await relay.exitStatus() == 0, "stderr: \(relay.stderr)")
        #expect(relay.stderr.contains("stopped"))
        Self.expectOneDatabaseFile(directory)
    }

    /// A relay stopped gracefully closed its store: SQLite copied the WAL into the database file
    /// and removed it, so the file alone is the whole database (a backup restored in its place
    /// meets no stale WAL). A relay that did not close it left both beside the file.
    static func expectOneDatabaseFile(_ directory: TemporaryDirectory, sourceLocation: SourceLocation = #_sourceLocation) {
        for leftover in ["relay.sqlite-wal", "relay.sqlite-shm"] {
            #expect(
                !FileManager.default.fileExists(atPath: directory.path(leftover)), "\(leftover) left after the stop",
                sourceLocation: sourceLocation)
        }
        #expect(FileManager.default.fileExists(atPath: directory.path("relay.sqlite")), sourceLocation: sourceLocation)
    }

    @Test func versionIsPrintedAndLoggedAtStart() async throws {
        let version = try RelayProcess(["--version"])
        defer { version.stop() }
        #expect(await version.exitStatus() == 0)
        let printed = version.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(printed.split(separator: ".").count == 3, "\(printed)")

        let directory = try TemporaryDirectory()
        let config = try directory.write("relay.yaml", tokenAppYAML(database: directory.path("relay.sqlite")))
        let relay = try RelayProcess(["serve", "--config", config])
        defer { relay.stop() }
        _ = try #require(await relay.listeningPort(), "stderr: \(relay.stderr)")
        #expect(relay.stderr.contains("starting") && relay.stderr.contains("version=\(printed)"), "stderr: \(relay.stderr)")
        relay.signal(SIGTERM)
        #expect(await relay.exitStatus() == 0)
    }

    @Test func SIGINTAlsoStopsGracefully() async throws {
        let directory = try TemporaryDirectory()
        let config = try directory.write("relay.yaml", tokenAppYAML(database: directory.path("relay.sqlite")))
        let relay = try RelayProcess(["serve", "--config", config])
        defer { relay.stop() }
        _ = try #require(await relay.listeningPort(), "stderr: \(relay.stderr)")
        relay.signal(SIGINT)
        #expect(await relay.exitStatus() == 0, "stderr: \(relay.stderr)")
        Self.expectOneDatabaseFile(directory)
    }

    /// One relay per SQLite file (`ServeLock`): a second `serve` on it stops before opening the
    /// store (whose start would put the first one's in-flight pushes back to pending), with
    /// EX_TEMPFAIL and the first one's pid; once the first is killed, the file is free again.
    @Test func aSecondRelayOnTheSameSQLiteFileStopsWithExit75() async throws {
        let directory = try TemporaryDirectory()
        let config = try directory.write("relay.yaml", tokenAppYAML(database: directory.path("relay.sqlite")))
        let first = try RelayProcess(["serve", "--config", config])
        defer { first.stop() }
        let port = try #require(await first.listeningPort(), "stderr: \(first.stderr)")

        let second = try RelayProcess(["serve", "--config", config])
        defer { second.stop() }
        #expect(await second.exitStatus() == 75, "stderr: \(second.stderr)")
        #expect(second.stderr.contains("in use by another push-relay (pid \(first.process.pid))"), "stderr: \(second.stderr)")
        #expect(!second.stdout.contains("listening"))
        #expect(try await Self.get(port, "/health").contains(#"{"status":"ok"}"#))

        first.stop()
        _ = await first.exitStatus()
        let third = try RelayProcess(["serve", "--config", config])
        defer { third.stop() }
        _ = try #require(await third.listeningPort(), "stderr: \(third.stderr)")
    }

    /// A taken port is said in one line naming the address, exit 71 (EX_OSERR).
    @Test func aTakenPortStopsStartUpWithExit71() async throws {
        let directory = try TemporaryDirectory()
        let first = try RelayProcess([
            "serve", "--config", try directory.write("a.yaml", tokenAppYAML(database: directory.path("a.sqlite"))),
        ])
        defer { first.stop() }
        let port = try #require(await first.listeningPort(), "stderr: \(first.stderr)")
        let config = try directory.write("b.yaml", tokenAppYAML(database: directory.path("b.sqlite"), port: port))
        let second = try RelayProcess(["serve", "--config", config])
        defer { second.stop() }
        #expect(await second.exitStatus() == 71, "stderr: \(second.stderr)")
        #expect(
            second.stderr.contains("push-relay: cannot listen on 127.0.0.1:\(port): Address already in use"), "stderr: \(second.stderr)")
        // The stop it makes is no database error: the pruner's cancelled pass is not logged.
        #expect(!second.stderr.contains("pruning the delivery log failed"), "stderr: \(second.stderr)")
        #expect(!second.stderr.contains("CancellationError"), "stderr: \(second.stderr)")
    }

    @Test func aBadCredentialStopsStartUpWithExit78() async throws {
        let directory = try TemporaryDirectory()
        let config = try directory.write(
            "relay.yaml", tokenAppYAML(database: directory.path("relay.sqlite"), keyFile: "/nonexistent/AuthKey.p8"))
        let relay = try RelayProcess(["serve", "--config", config])
        defer { relay.stop() }
        #expect(await relay.exitStatus() == 78)
        #expect(relay.stderr.contains("/nonexistent/AuthKey.p8"))
    }
}
