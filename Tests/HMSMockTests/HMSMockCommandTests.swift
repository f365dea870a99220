import Foundation
import HMSMock
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The `hms-mock` executable as scripts run it, against curl (libcurl on nghttp2, a third stack):
/// the line the Python harness parses, HTTP/2 by default, HTTP/1.1 only with `--http1-only`, the record file.
@Suite(.timeLimit(.minutes(5))) struct HMSMockCommandTests {
    /// The built `hms-mock`, next to the test bundle.
    static var binary: String {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("hms-mock").path
        return FileManager.default.isExecutableFile(atPath: beside) ? beside : Repository.path(".build/debug/hms-mock")
    }

    /// A running `hms-mock` and what its listening line says.
    struct Running {
        let process: ChildProcess
        let url: String
        let admin: String?
    }

    static func start(_ extra: [String], record: String) async throws -> Running {
        let process = try ChildProcess(
            binary,
            [
                "--port", "0", "--admin-port", "0", "--cert", DevCertificates.serverPEM, "--key", DevCertificates.serverKey,
                "--app-id", HMSFixture.appID, "--client-secret", HMSFixture.clientSecret, "--record", record, "--log-level", "warning",
            ] + extra)
        guard await eventually(within: 120, { process.stdout.contains("\n") || !process.isRunning }),
            let line = process.stdout.split(separator: "\n").first, line.contains("listening on ")
        else {
            process.signal(SIGKILL)
            throw TestTimeout(what: "hms-mock's listening line (stdout \(process.stdout), stderr \(process.stderr))")
        }
        let url = String(line.split(separator: "listening on ")[1].split(separator: " ")[0])
        let admin = line.split(separator: "admin on ").dropFirst().first.map { String($0.split(separator: " ")[0]) }
        return Running(process: process, url: url, admin: admin)
    }

    static func stop(_ running: Running) async {
        running.process.signal(SIGTERM)
        #expect(await running.process.exitStatus(within: 60) == 0)
    }

    /// curl's `%{http_version} %{http_code}` line after the body.
    static func curl(_ arguments: [String]) async throws -> (body: String, version: String, status: String) {
        let result = try await ChildProcess.run(
            "/usr/bin/curl", ["-sS", "--cacert", DevCertificates.caPEM, "-w", "\n%{http_version} %{http_code}"] + arguments)
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        let last = (lines.last ?? "").split(separator: " ")
        guard result.status == 0, last.count == 2 else { throw TestTimeout(what: "curl's answer (\(result.stderr))") }
        return (lines.dropLast().joined(separator: "\n"), String(last[0]), String(last[1]))
    }

    static let form = "grant_type=client_credentials&client_id=\(HMSFixture.appID)&client_secret=\(HMSFixture.clientSecret)"

    @Test func byDefaultH2IsNegotiatedAndHTTP11ServedToThoseWhoAskAndSendsAreRecorded() async throws {
        let directory = try TemporaryDirectory()
        let record = directory.path("hms.jsonl")
        let running = try await Self.start([], record: record)
        #expect(running.url.hasPrefix("https://127.0.0.1:"))
        #expect(running.admin?.hasPrefix("http://127.0.0.1:") == true)

        let token = try await Self.curl(["--http2", "-d", Self.form, running.url + "/oauth2/v3/token"])
        #expect(token.version == "2")
        #expect(token.status == "200")
        let accessToken = try #require(
            (try JSONSerialization.jsonObject(with: Data(token.body.utf8)) as? [String: Any])?["access_token"] as? String)

        let body = #"{"message":{"data":"{\"message\":\"hi\"}","android":{"urgency":"HIGH","ttl":"60s"},"token":["tok-1"]}}"#
        let sent = try await Self.curl([
            "--http1.1", "-H", "Authorization: Bearer \(accessToken)", "-H", "Content-Type: application/json", "-d", body,
            running.url + "/v1/\(HMSFixture.appID)/messages:send",
        ])
        #expect(sent.version == "1.1")
        #expect(sent.body.contains("\"80000000\""))
        let lines = try String(contentsOfFile: record, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 1)
        let recorded = try JSONDecoder().decode(RecordedMessage.self, from: Data(try #require(lines.first).utf8))
        #expect(recorded.token == "tok-1")
        #expect(recorded.httpVersion == "http/1.1")
        #expect(recorded.data["message"] == .string("hi"))
        await Self.stop(running)
    }

    @Test func http1OnlyServesAnH2ClientOverHTTP11() async throws {
        let directory = try TemporaryDirectory()
        let running = try await Self.start(["--http1-only"], record: directory.path("hms.jsonl"))
        #expect(running.process.stdout.contains("alpn http/1.1)"))
        let token = try await Self.curl(["--http2", "-d", Self.form, running.url + "/oauth2/v3/token"])
        #expect(token.version == "1.1")
        #expect(token.status == "200")
        await Self.stop(running)
    }

    @Test func anAppIDThatIsNotDigitsIsRefusedAtStart() async throws {
        let result = try await ChildProcess.run(Self.binary, ["--app-id", "com.example.app", "--port", "0"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("--app-id"))
    }
}
