import APNs
import ArgumentParser
import Foundation
import HTTP2Transport

/// Pushes N notifications as fast as the client can and prints throughput, latency and RSS.
/// Driven by scripts/bench-apns.sh, which starts the sink and runs h2load as the ceiling.
@main
struct APNsBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "apns-bench")

    @Option(help: "Sink host.") var host = "127.0.0.1"
    @Option(help: "Sink port.") var port = 2197
    @Option(help: "CA file that signed the sink's certificate.") var caFile = "certs/dev/ca.pem"
    @Option(help: "Notifications to send.") var count = 200_000
    @Option(help: "Requests in flight at once (across the pool).") var concurrency = 1000
    @Option(help: "Connections in the pool.") var connections = 1
    @Option(help: "Payload size in bytes.") var payloadSize = 700
    @Option(help: ".p8 key for token auth (omit for an unauthenticated sink).") var p8: String?
    @Option var keyID = "DEVKEY1234"
    @Option var teamID = "DEVTEAM123"
    @Flag(help: "Print one JSON line instead of text.") var json = false

    func run() async throws {
        let authentication: APNsAuthentication
        if let p8 {
            let key = try APNsSigningKey(p8File: p8)
            authentication = .token(try ProviderTokenCache(key: key, keyID: keyID, teamID: teamID))
        } else {
            authentication = .token(
                try ProviderTokenCache(
                    key: try APNsSigningKey(p8File: "certs/dev/AuthKey_DEVKEY1234.p8"),
                    keyID: keyID, teamID: teamID))
        }
        let client = try APNsClient(
            configuration: APNsClientConfiguration(
                endpoint: TransportEndpoint(host: host, port: port), authentication: authentication,
                extraCAFile: caFile, trustSystemRoots: false, connections: connections,
                requestTimeout: .seconds(60)))
        let payload = Self.payload(size: payloadSize)
        let token = String(repeating: "ab", count: 32)

        // Warm up: connections open, first authenticated request done.
        _ = try await client.send(APNsRequest(deviceToken: token, topic: "com.example.pushrelay", payload: payload))

        let perWorker = count / concurrency
        let start = ContinuousClock.now
        let cpuStart = Self.cpuMicroseconds()
        let results = try await withThrowingTaskGroup(of: ([Int64], Int).self) { group in
            for _ in 0..<concurrency {
                group.addTask {
                    var latencies: [Int64] = []
                    latencies.reserveCapacity(perWorker)
                    var failures = 0
                    for _ in 0..<perWorker {
                        let t0 = ContinuousClock.now
                        let r = try await client.send(APNsRequest(deviceToken: token, topic: "com.example.pushrelay", payload: payload))
                        if r.status != 200 { failures += 1 }
                        let d = ContinuousClock.now - t0
                        latencies.append(d.components.seconds * 1_000_000 + d.components.attoseconds / 1_000_000_000_000)
                    }
                    return (latencies, failures)
                }
            }
            var all: [Int64] = []
            all.reserveCapacity(perWorker * concurrency)
            var failures = 0
            for try await (l, f) in group {
                all.append(contentsOf: l)
                failures += f
            }
            return (all, failures)
        }
        let elapsed = ContinuousClock.now - start
        // The process's CPU per push, threads of the client and of this harness alike: the
        // sending floor scripts/bench-compare.sh sets beside the whole relay's CPU per event.
        let cpuPerPush = (Self.cpuMicroseconds() - cpuStart) / Double(max(1, perWorker * concurrency))
        await client.shutdown()
        var latencies = results.0
        latencies.sort()
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let rate = Double(latencies.count) / seconds
        let p50 = Double(latencies[latencies.count / 2]) / 1000
        let p99 = Double(latencies[latencies.count * 99 / 100]) / 1000
        let rss = Self.peakRSSKiB()
        if json {
            print(
                #"{"sent":\#(latencies.count),"failed":\#(results.1),"seconds":\#(seconds),"rate":\#(Int(rate)),"p50_ms":\#(p50),"p99_ms":\#(p99),"peak_rss_kib":\#(rss),"cpu_us_per_push":\#(cpuPerPush),"connections":\#(connections),"concurrency":\#(concurrency)}"#
            )
        } else {
            print(
                String(
                    format:
                        "sent %d (failed %d) in %.2f s: %.0f notifications/s, p50 %.2f ms, p99 %.2f ms, peak RSS %.1f MiB, CPU %.2f µs per push (%d connection(s), %d in flight)",
                    latencies.count, results.1, seconds, rate, p50, p99, Double(rss) / 1024, cpuPerPush, connections, concurrency))
        }
    }

    /// A JSON payload of exactly `size` bytes shaped like a chat push.
    static func payload(size: Int) -> [UInt8] {
        let head = #"{"aps":{"alert":"Jane: hello","badge":1,"sound":"default"},"sendbird":{"message":""#
        let tail = #""}}"#
        let filler = String(repeating: "x", count: max(0, size - head.utf8.count - tail.utf8.count))
        return Array((head + filler + tail).utf8)
    }

    /// User and system CPU time of the whole process so far.
    static func cpuMicroseconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let user = Double(usage.ru_utime.tv_sec) * 1e6 + Double(usage.ru_utime.tv_usec)
        return user + Double(usage.ru_stime.tv_sec) * 1e6 + Double(usage.ru_stime.tv_usec)
    }

    static func peakRSSKiB() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            return Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]) ?? 0
        }
        return 0
    }
}
