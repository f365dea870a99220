import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A throwaway PostgreSQL cluster for the tests of one test process: `initdb` and `pg_ctl` in a
/// fresh temporary directory, on a free loopback port, with fsync off (tests only). Started once,
/// on first use, shared by every test; each test takes a database of its own (`createDatabase`),
/// so tests stay independent and run in parallel. Stopped (`pg_ctl stop -m immediate`) and removed
/// when the process exits; a cluster left by a test process that crashed is removed by the next
/// one to start (its directory names the process that owned it).
///
/// The binaries are Debian's (`postgresql` package). As root, which CI is and which `initdb`
/// refuses, the server runs as the unprivileged `postgres` user.
public final class PostgresCluster: Sendable {
    /// The superuser `initdb` creates; connections are trusted (no password).
    public static let user = "pushrelay"
    public let host = "127.0.0.1"
    public let port: Int

    private let bindir: String
    private let directory: String
    private let asPostgres: Bool

    public struct Unavailable: Error, CustomStringConvertible {
        public let description: String
    }

    /// The process's cluster, started on first use.
    public static func shared() async throws -> PostgresCluster {
        try await starting.value
    }

    private static let starting = Task<PostgresCluster, any Error> {
        // initdb and the server's start take a second or two: off Swift's cooperative pool.
        try await offThread { try PostgresCluster() }
    }

    /// A cluster of the caller's own, for a test that needs the server set up differently (TLS):
    /// `settings` are server parameters (`-c name=value`); `files` are written into the data
    /// directory first, owned by the server's user and readable by it alone (as `ssl_key_file`
    /// must be), so a setting can name them by a relative path. Stop it with `stop()`.
    public static func dedicated(settings: [String: String] = [:], files: [String: String] = [:]) async throws -> PostgresCluster {
        try await offThread { try PostgresCluster(settings: settings, files: files) }
    }

    /// Clusters to stop at exit (the C `atexit` handler cannot capture anything).
    private static let running = Mutex<[PostgresCluster]>([])

    private init(settings: [String: String] = [:], files: [String: String] = [:]) throws {
        let bindir = try Self.findBindir()
        let asPostgres = geteuid() == 0
        self.bindir = bindir
        self.asPostgres = asPostgres
        Self.removeOrphans(bindir: bindir, asPostgres: asPostgres)
        var template = Array(URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("\(Self.prefix)XXXXXX").path.utf8CString)
        guard let created = mkdtemp(&template) else { throw Unavailable(description: "mkdtemp failed: errno \(errno)") }
        let directory = String(cString: created)
        self.directory = directory
        try "\(getpid())".write(toFile: "\(directory)/\(Self.ownerFile)", atomically: false, encoding: .utf8)
        var serverUser: (uid: uid_t, gid: gid_t)?
        if asPostgres {
            guard let account = getpwnam("postgres") else {
                throw Unavailable(
                    description: "running as root, and there is no `postgres` user to run the server as (Debian's postgresql creates it)")
            }
            serverUser = (account.pointee.pw_uid, account.pointee.pw_gid)
            guard chown(directory, account.pointee.pw_uid, account.pointee.pw_gid) == 0 else {
                throw Unavailable(description: "chown \(directory) to postgres: errno \(errno)")
            }
        }
        let run = { (tool: String, arguments: [String]) in
            try Self.run(bindir: bindir, asPostgres: asPostgres, tool, arguments)
        }
        let initdb = try run(
            "initdb", ["-A", "trust", "-U", Self.user, "--no-sync", "-E", "UTF8", "--locale=C", "-D", "\(directory)/data"])
        guard initdb.status == 0 else {
            try? FileManager.default.removeItem(atPath: directory)
            throw Unavailable(description: "initdb failed (\(initdb.status)): \(initdb.stderr)")
        }
        for (name, contents) in files {
            let path = "\(directory)/data/\(name)"
            guard FileManager.default.createFile(atPath: path, contents: Data(contents.utf8), attributes: [.posixPermissions: 0o600]),
                serverUser.map({ chown(path, $0.uid, $0.gid) == 0 }) ?? true
            else {
                try? FileManager.default.removeItem(atPath: directory)
                throw Unavailable(description: "cannot write \(path): errno \(errno)")
            }
        }
        // A port found free may be taken before the server binds it: try a few.
        var lastFailure = ""
        for _ in 0..<3 {
            let port = try Self.freePort()
            let options =
                ([
                    "-p \(port)", "-k \(directory)", "-c listen_addresses=127.0.0.1", "-c fsync=off", "-c synchronous_commit=off",
                    "-c full_page_writes=off", "-c max_connections=500",
                ] + settings.sorted { $0.key < $1.key }.map { "-c \($0.key)=\($0.value)" }).joined(separator: " ")
            let start = try run("pg_ctl", ["-D", "\(directory)/data", "-l", "\(directory)/server.log", "-w", "-o", options, "start"])
            if start.status == 0 {
                self.port = port
                Self.running.withLock { clusters in
                    if clusters.isEmpty { atexit { PostgresCluster.stopAll() } }
                    clusters.append(self)
                }
                return
            }
            lastFailure = start.stderr + ((try? String(contentsOfFile: "\(directory)/server.log", encoding: .utf8)) ?? "")
        }
        try? FileManager.default.removeItem(atPath: directory)
        throw Unavailable(description: "pg_ctl start failed three times: \(lastFailure)")
    }

    private static let prefix = "pushrelay-swift-pg-"
    private static let ownerFile = "owner.pid"

    /// Stops and removes the clusters of test processes that are gone (killed, crashed: no
    /// `atexit`), so they do not pile up on a developer's machine.
    private static func removeOrphans(bindir: String, asPostgres: Bool) {
        let temporary = URL(fileURLWithPath: NSTemporaryDirectory())
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? []
        for entry in entries where entry.hasPrefix(prefix) {
            let directory = temporary.appendingPathComponent(entry).path
            guard let owner = (try? String(contentsOfFile: "\(directory)/\(ownerFile)", encoding: .utf8)).flatMap({ pid_t($0) }),
                kill(owner, 0) != 0, errno == ESRCH
            else { continue }
            _ = try? run(bindir: bindir, asPostgres: asPostgres, "pg_ctl", ["-D", "\(directory)/data", "-m", "immediate", "-w", "stop"])
            try? FileManager.default.removeItem(atPath: directory)
        }
    }

    /// A new, empty database; returns its name.
    public func createDatabase() async throws -> String {
        let name = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(16).lowercased()
        _ = try await psql(database: "postgres", "CREATE DATABASE \(name)")
        return name
    }

    /// `postgres://pushrelay@127.0.0.1:PORT/database`.
    public func url(database: String) -> String { "postgres://\(Self.user)@\(host):\(port)/\(database)" }

    /// Runs `sql` in `database` with psql; the rows, each a list of its columns as text.
    public func psql(database: String, _ sql: String) async throws -> [[String]] {
        let result = try await ChildProcess.run(
            "\(bindir)/psql",
            [
                "-h", host, "-p", "\(port)", "-U", Self.user, "-d", database, "-v", "ON_ERROR_STOP=1", "-q", "-A", "-t", "-F", "\t", "-c",
                sql,
            ])
        guard result.status == 0 else { throw Unavailable(description: "psql \(sql): \(result.stderr)") }
        return result.stdout.split(separator: "\n", omittingEmptySubsequences: true).map {
            $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        }
    }

    private static func stopAll() {
        for cluster in running.withLock({ $0 }) { cluster.stop() }
    }

    /// Stops the server at once (no checkpoint: nothing in it is kept) and removes its files.
    public func stop() {
        Self.running.withLock { $0.removeAll { $0 === self } }
        _ = try? Self.run(bindir: bindir, asPostgres: asPostgres, "pg_ctl", ["-D", "\(directory)/data", "-m", "immediate", "-w", "stop"])
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Runs a PostgreSQL program to its end, as `postgres` when this process is root.
    private static func run(
        bindir: String, asPostgres: Bool, _ tool: String, _ arguments: [String]
    ) throws -> (status: Int32, stdout: String, stderr: String) {
        let program = "\(bindir)/\(tool)"
        guard asPostgres else { return try ChildProcess.runBlocking(program, arguments) }
        let runusers: [String] = ["/usr/sbin/runuser", "/sbin/runuser", "/usr/bin/runuser"]
        guard let runuser = runusers.first(where: { access($0, X_OK) == 0 }) else {
            throw Unavailable(description: "running as root, and runuser (util-linux) is missing")
        }
        return try ChildProcess.runBlocking(runuser, ["-u", "postgres", "--", program] + arguments)
    }

    /// `PG_BINDIR`, the newest `/usr/lib/postgresql/*/bin`, or `pg_config --bindir`: the first
    /// holding `initdb` (`/usr/local/bin/initdb` may be a wrapper without the other programs).
    private static func findBindir() throws -> String {
        var candidates: [String] = []
        if let fromEnvironment = ProcessInfo.processInfo.environment["PG_BINDIR"] { candidates.append(fromEnvironment) }
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        candidates += versions.sorted { (Int($0) ?? 0) > (Int($1) ?? 0) }.map { "/usr/lib/postgresql/\($0)/bin" }
        let pgConfigs: [String] = ["/usr/bin/pg_config", "/usr/local/bin/pg_config"]
        if let pgConfig = pgConfigs.first(where: { access($0, X_OK) == 0 }),
            let result = try? ChildProcess.runBlocking(pgConfig, ["--bindir"]), result.status == 0
        {
            candidates.append(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        let programs: [String] = ["initdb", "pg_ctl", "postgres", "psql"]
        guard let found = candidates.first(where: { dir in programs.allSatisfy { access("\(dir)/\($0)", X_OK) == 0 } })
        else {
            throw Unavailable(
                description: """
                    PostgreSQL server binaries not found (initdb, pg_ctl, postgres and psql under /usr/lib/postgresql/*/bin, \
                    pg_config --bindir or PG_BINDIR): install Debian's `postgresql` package (apt-get install postgresql)
                    """)
        }
        return found
    }

    private static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Unavailable(description: "socket: errno \(errno)") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                bind(fd, raw, length) == 0 && getsockname(fd, raw, &length) == 0
            }
        }
        guard bound else { throw Unavailable(description: "bind to a free port: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
