import APNs
import APNsMock
import Foundation
import TestSupport
import Testing

/// `push-relay send`, the real binary, against the mock.
@Suite(.timeLimit(.minutes(5))) struct SendCommandTests {
    @Test func deliversAndPrintsStatusAndApnsID() async throws {
        try await withMock { mock in
            let id = "0b6e1c52-6b0e-4b6a-9a57-6c1f6e2f6e11"
            let result = try await run(tokenArgs(mock) + ["--device-token", Fixtures.deviceToken, "--alert", "Hello", "--apns-id", id])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains("status 200 apns-id \(id)"))
            #expect(result.stdout.contains("outcome delivered"))
            #expect(result.stderr.isEmpty, "the printed line says it all: \(result.stderr)")
            let recorded = try #require(mock.notifications.first)
            let payload = try JSONSerialization.jsonObject(with: recorded.payload) as? [String: Any]
            #expect((payload?["aps"] as? [String: Any])?["alert"] as? String == "Hello")
        }
    }

    @Test func rejectedPushExitsOneWithReasonAndTimestamp() async throws {
        try await withMock { mock in
            let gone = String(repeating: "0d", count: 32)
            mock.markUnregistered(token: gone, at: Date(timeIntervalSince1970: 1_700_000_000))
            let result = try await run(tokenArgs(mock) + ["--device-token", gone, "--alert", "Hi"])
            #expect(result.status == 1)
            #expect(result.stdout.contains("status 410"))
            #expect(result.stdout.contains("reason Unregistered timestamp 1700000000000"))
            #expect(result.stdout.contains("token-invalid"))
        }
    }

    @Test func certificateAuthWithP12() async throws {
        try await withMock(Fixtures.mockConfiguration(clientCertificates: true)) { mock in
            let result = try await run(
                [
                    "send", "--environment", "https://127.0.0.1:\(mock.port)", "--ca-file", Fixtures.cert("ca.pem"),
                    "--topic", Fixtures.topic, "--p12", Fixtures.cert("client.p12"), "--p12-password-env", "TEST_P12_PW",
                    "--device-token", Fixtures.deviceToken, "--alert", "Hi",
                ],
                environment: ["TEST_P12_PW": "secret"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(mock.notifications.count == 1)
        }
    }

    @Test func badCredentialFileExitsTwoNamingTheFile() async throws {
        let missing = "/nonexistent/AuthKey_X.p8"
        let result = try await run([
            "send", "--p8", missing, "--key-id", Fixtures.keyID, "--team-id", Fixtures.teamID,
            "--topic", Fixtures.topic, "--device-token", Fixtures.deviceToken, "--alert", "Hi",
        ])
        #expect(result.status == 2)
        #expect(result.stderr.contains(missing))
    }

    @Test func unreachableEndpointExitsThree() async throws {
        let result = try await run([
            "send", "--p8", Fixtures.cert("AuthKey_DEVKEY1234.p8"), "--key-id", Fixtures.keyID,
            "--team-id", Fixtures.teamID, "--environment", "https://127.0.0.1:1", "--timeout", "5",
            "--topic", Fixtures.topic, "--device-token", Fixtures.deviceToken, "--alert", "Hi",
        ])
        #expect(result.status == 3)
        #expect(result.stderr.contains("cannot connect"))
    }

    /// `--environment` takes the forms `apns.environment` takes, read by the same code.
    @Test func theEnvironmentTakesTheConfigurationsForms() async throws {
        try await withMock { mock in
            let result = try await run([
                "send", "--p8", Fixtures.cert("AuthKey_DEVKEY1234.p8"), "--key-id", Fixtures.keyID, "--team-id", Fixtures.teamID,
                "--environment", "{url: \"https://127.0.0.1:\(mock.port)\", ca_file: \(Fixtures.cert("ca.pem"))}", "--topic",
                Fixtures.topic,
                "--device-token", Fixtures.deviceToken, "--alert", "Hi",
            ])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(mock.notifications.count == 1)
        }
        let both = try await run([
            "send", "--environment", "{url: \"https://127.0.0.1:1\", ca_file: a.pem}", "--ca-file", "b.pem", "--topic", Fixtures.topic,
            "--device-token", Fixtures.deviceToken, "--alert", "Hi",
        ])
        #expect(both.status == 64 && both.stderr.contains("drop --ca-file"), "\(both.stderr)")
        let staging = try await run([
            "send", "--environment", "staging", "--topic", Fixtures.topic, "--device-token", Fixtures.deviceToken, "--alert", "Hi",
        ])
        #expect(staging.status == 64, "\(staging.stderr)")
        #expect(staging.stderr.contains("--environment: \"staging\" is not production, sandbox (or development)"), "\(staging.stderr)")
        #expect(staging.stderr.contains("Usage: push-relay send"), "send's own usage: \(staging.stderr)")
    }

    private func tokenArgs(_ mock: APNsMockServer) -> [String] {
        [
            "send", "--p8", Fixtures.cert("AuthKey_DEVKEY1234.p8"), "--key-id", Fixtures.keyID, "--team-id", Fixtures.teamID,
            "--environment", "https://127.0.0.1:\(mock.port)", "--ca-file", Fixtures.cert("ca.pem"), "--topic", Fixtures.topic,
        ]
    }
}

struct ProcessResult {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// Runs the built `push-relay` (next to the test bundle) and collects its output.
func run(_ arguments: [String], environment: [String: String] = [:]) async throws -> ProcessResult {
    let binDir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    var binary = binDir.appendingPathComponent("push-relay").path
    if !FileManager.default.isExecutableFile(atPath: binary) {
        binary = Fixtures.repoRoot + "/.build/debug/push-relay"
    }
    let result = try await ChildProcess.run(
        binary, arguments,
        environment: ProcessInfo.processInfo.environment.merging(environment) { $1 })
    return ProcessResult(status: result.status, stdout: result.stdout, stderr: result.stderr)
}
