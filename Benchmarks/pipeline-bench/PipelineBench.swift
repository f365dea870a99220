import APNs
import Foundation
import PushCore
import PushService
import PushStore
import StoreContract

/// Heap allocations of the whole process so far, when Benchmarks/malloc-count's library is
/// preloaded (`LD_PRELOAD`); nil without it.
let mallocCount: (@convention(c) () -> UInt)? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "pushrelay_malloc_count").map {
    unsafeBitCast($0, to: (@convention(c) () -> UInt).self)
}

/// CPU time of the whole process (all threads), in microseconds.
func cpuMicroseconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1e6 + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec)
}

/// Per-stage cost of the relay's webhook → queue → dispatch path, without HTTP or APNs: how many
/// microseconds each stage takes per event (10 members, 8 offline with one token each), so
/// optimisation work knows where the time goes. `swift run -c release pipeline-bench [events]`.
/// `pipeline-bench --schema PATH` only creates the relay's store at PATH (every migration), for
/// `scripts/bench-sqlite-floor.sh`, whose C probe takes its schema from there.
/// For `scripts/bench-costs.sh` (`LogSeeder`, `PruneProbe`):
/// `pipeline-bench --seed-log PATH DELIVERIES USERS sent|pending FROM_MS TO_MS DUE_MS MESSAGE_BASE`
/// writes a delivery log as the relay does and prints how many deliveries it stored;
/// `pipeline-bench --prune PATH CUTOFF_MS` prunes it as the relay does and prints what it took.
@main
struct PipelineBench {
    static func main() async throws {
        let arguments = CommandLine.arguments
        if arguments.count == 3, arguments[1] == "--schema" {
            _ = try SQLiteStore(path: arguments[2])
            return
        }
        if arguments.count > 1, arguments[1] == "--seed-log" {
            // DELIVERIES USERS and FROM_MS TO_MS DUE_MS MESSAGE_BASE, all whole numbers.
            let numbers = arguments.count == 10 ? (Array(arguments[3...4]) + arguments[6...9]).compactMap { Int($0) } : []
            guard numbers.count == 6, let outcome = LogSeeder.Outcome(rawValue: arguments[5]), numbers[1] >= 10, numbers[0] >= 0 else {
                usage("--seed-log PATH DELIVERIES USERS(>=10) sent|pending FROM_MS TO_MS DUE_MS MESSAGE_BASE")
            }
            let store = try SQLiteStore(path: arguments[2])
            let seeder = LogSeeder(
                users: numbers[1], outcome: outcome, fromMs: Int64(numbers[2]), toMs: Int64(numbers[3]), dueAtMs: Int64(numbers[4]),
                messageBase: Int64(numbers[5]))
            print(try await seeder.seed(store, deliveries: numbers[0]))
            try await store.close()
            return
        }
        if arguments.count > 1, arguments[1] == "--prune" {
            guard arguments.count == 4, let cutoff = Int64(arguments[3]) else { usage("--prune PATH CUTOFF_MS") }
            let store = try SQLiteStore(path: arguments[2])
            print(try await PruneProbe(cutoffMs: cutoff).run(store, path: arguments[2]))
            try await store.close()
            return
        }
        if arguments.count > 1, Int(arguments[1]) == nil {
            usage("[EVENTS] | --schema PATH | --seed-log … | --prune …")
        }
        let n = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 5000
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pipeline-bench-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = try SQLiteStore(path: dir.appendingPathComponent("bench.sqlite").path)
        let users = 10_000
        for u in 0..<users {
            _ = try await store.registerToken(
                app: "bench-app", user: "u\(u)", token: String(format: "%064x", u + 1), isUnique: false, provider: .apns)
        }
        var generator = SystemRandomNumberGenerator()
        let bodies: [Data] = (0..<n).map { i in
            var ids = Set<Int>()
            while ids.count < 10 { ids.insert(Int.random(in: 0..<users, using: &generator)) }
            return BenchEvent.body(members: Array(ids), messageID: Int64(1_000_000 + i), number: i)
        }
        // `PIPELINE_BENCH_TIMES=1` writes each stage's CLOCK_MONOTONIC span to stderr, for
        // `perf record -k CLOCK_MONOTONIC` and `perf report --time start,end` on one stage.
        let printTimes = ProcessInfo.processInfo.environment["PIPELINE_BENCH_TIMES"] == "1"
        func monotonicSeconds() -> String {
            var time = timespec()
            clock_gettime(CLOCK_MONOTONIC, &time)
            return String(format: "%ld.%06ld", time.tv_sec, time.tv_nsec / 1000)
        }
        func measure(_ name: String, _ body: () async throws -> Void) async rethrows {
            let startTime = printTimes ? monotonicSeconds() : ""
            defer { if printTimes { FileHandle.standardError.write(Data("\(name): \(startTime),\(monotonicSeconds())\n".utf8)) } }
            let start = ContinuousClock.now
            let cpuStart = cpuMicroseconds()
            let mallocsStart = mallocCount?() ?? 0
            try await body()
            let mallocs = (mallocCount?() ?? 0) - mallocsStart
            let elapsed = ContinuousClock.now - start
            let us = Double(elapsed.components.seconds) * 1e6 + Double(elapsed.components.attoseconds) / 1e12
            let cpu = cpuMicroseconds() - cpuStart
            print(
                name.padding(toLength: 30, withPad: " ", startingAt: 0)
                    + String(format: "%8.1f µs/event wall %8.1f µs/event CPU", us / Double(n), cpu / Double(n))
                    + (mallocCount == nil ? "" : String(format: " %8.1f mallocs/event", Double(mallocs) / Double(n))))
        }
        var events: [WebhookEvent] = []
        await measure("parse + decode") {
            events = bodies.map { try! WebhookEnvelope(json: $0).offlineMessageEvent() }
        }
        // What the intake does: the app's key set up once, one HMAC of the whole body per event
        // (a well-formed digest; "00" was refused before any hashing and measured nothing).
        let key = WebhookSignature.Key("bench-token-0123456789abcdef0123456789abcdef")
        let digests = bodies.map { WebhookSignature.digest(fromHeader: WebhookSignature.expected(body: $0, apiToken: "x"))! }
        var matched = 0
        await measure("HMAC signature") {
            for (body, digest) in zip(bodies, digests) where key.matches(digest, body: body) { matched += 1 }
        }
        precondition(matched == 0, "signed under another key")
        var lookups: [(RecipientLookup, [PushTemplateName: PushMessageTemplate])] = []
        let policy = RecipientPolicy()
        try await measure("recipient read (sequential)") {
            for event in events {
                let members = event.members.filter { policy.skipBeforePreferences(event: event, member: $0) == nil }.map(\.userID)
                let (states, templates) = try store.recipientStatesAndTemplates(
                    app: "bench-app", users: members, channel: event.channel.channelURL)
                let lookup = RecipientLookup(states)
                lookups.append((lookup, templates))
            }
        }
        // Every read a miss, as at a million registered users: the cache is emptied before each
        // event (SQLite's page cache stays warm here, as no commit comes between the reads).
        try await measure("recipient read, all misses") {
            for event in events {
                let members = event.members.filter { policy.skipBeforePreferences(event: event, member: $0) == nil }.map(\.userID)
                store.recipientCache.invalidate(app: "bench-app")
                _ = try store.recipientStatesAndTemplates(app: "bench-app", users: members, channel: event.channel.channelURL)
            }
        }
        try await measure("read hop only (templates)") {
            for _ in events { _ = try await store.storedMessageTemplates(app: "bench-app") }
        }
        try await measure("recipient read, 8 concurrent") {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for worker in 0..<8 {
                    let slice = Array(events[(worker * n / 8)..<((worker + 1) * n / 8)])
                    group.addTask { @Sendable in
                        for event in slice {
                            let members = event.members.filter { policy.skipBeforePreferences(event: event, member: $0) == nil }.map(
                                \.userID)
                            _ = try store.recipientStatesAndTemplates(app: "bench-app", users: members, channel: event.channel.channelURL)
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
        var plans: [PushPlan] = []
        let now = Date()
        await measure("plan + payloads") {
            let planner = PushPlanner(formats: [.apns: .notification])
            plans = zip(events, lookups).map { planner.plan($0, lookup: $1.0, now: now) }
        }
        var accepted: [AcceptedEvent] = []
        await measure("to rows (apns-id, etc.)") {
            accepted = plans.map { plan in
                var event = AcceptedEvent(plan: plan, senderID: nil, acceptedAtMs: 1) {
                    NewDelivery(planned: $0, pushID: APNsID.random(), pushType: "alert", priority: 10, expiresAtMs: Int64.max / 2)
                }
                store.prepareForCommit(&event)
                return event
            }
        }
        // What the layout saves: payload bytes per event, whole, with the shared bytes once (v10),
        // and as stored (v13: the rest packed in one row per event, compressed).
        let wholeBytes = accepted.lazy.flatMap(\.deliveries).map(\.payload.count).reduce(0, +)
        let sharedRuns = accepted.lazy.flatMap(\.deliveries).flatMap(\.sharedSpans).map(\.length).reduce(0, +)
        let sharedOnce = accepted.lazy.compactMap(\.sharedPayload?.count).reduce(0, +)
        let stored = accepted.lazy.map(\.storedPayloadBytes).reduce(0, +)
        print(
            "  (payload bytes per event: \(wholeBytes / n) whole, \((wholeBytes - sharedRuns + sharedOnce) / n) with shared bytes once, "
                + "\(stored / n) stored)")
        // `PIPELINE_BENCH_ACCEPT_BATCH=N` commits N events per transaction instead of 32: a group
        // commit's size under a middling load is 1-2, where a commit's fixed cost dominates.
        let acceptBatch = max(1, ProcessInfo.processInfo.environment["PIPELINE_BENCH_ACCEPT_BATCH"].flatMap(Int.init) ?? 32)
        try await measure("accept, batches of \(acceptBatch)") {
            var index = 0
            while index < accepted.count {
                _ = try await store.acceptEvents(Array(accepted[index..<min(index + acceptBatch, accepted.count)]))
                index += acceptBatch
            }
        }
        var claimed: [DeliveryRecord] = []
        try await measure("claim, batches of 1000") {
            while true {
                let batch = try await store.claimDue(nowMs: 2, limit: 1000)
                if batch.isEmpty { break }
                claimed += batch
            }
        }
        print("  (\(claimed.count) deliveries)")
        try await measure("record sent, batches of 1000") {
            var index = 0
            while index < claimed.count {
                let slice = claimed[index..<min(index + 1000, claimed.count)]
                try await store.recordOutcomes(
                    slice.map {
                        DeliveryOutcome(
                            deliveryID: $0.id, state: .sent, atMs: 3,
                            attempt: DeliveryAttempt(atMs: 3, status: 200, reason: nil, error: nil, pushID: $0.pushID))
                    })
                index += 1000
            }
        }
        // The same events with every payload stored whole (as before `v10_shared_payloads`), in
        // a store of their own: the layout's cost against the old one, in one run.
        let wholeStore = try SQLiteStore(path: dir.appendingPathComponent("whole.sqlite").path)
        let whole = accepted.map { event in
            var event = event
            event.sharedPayload = nil
            return event
        }
        try await measure("accept, whole payloads (old)") {
            var index = 0
            while index < whole.count {
                _ = try await wholeStore.acceptEvents(Array(whole[index..<min(index + 32, whole.count)]))
                index += 32
            }
        }
        try await measure("claim, whole payloads (old)") {
            while try await !wholeStore.claimDue(nowMs: 2, limit: 1000).isEmpty {}
        }
    }

    /// A wrong command line: says what it takes, exits 64 (EX_USAGE) instead of running the stages.
    static func usage(_ synopsis: String) -> Never {
        FileHandle.standardError.write(Data("usage: pipeline-bench \(synopsis)\n".utf8))
        exit(64)
    }
}
