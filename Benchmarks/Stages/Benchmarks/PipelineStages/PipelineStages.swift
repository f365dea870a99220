import Benchmark
import Foundation
import PushCore
import PushStore
import StoreContract

/// The relay's webhook → queue → dispatch path stage by stage, without HTTP or APNs: each
/// benchmark prepares 1,000 events' input unmeasured, then measures its stage over them, so the
/// figures read per event (`scalingFactor: .kilo`).
let benchmarks: @Sendable () -> Void = {
    stage("parse + decode") { benchmark, fixture in
        let bodies = fixture.bodies(benchmark.scaledIterations.count)
        benchmark.startMeasurement()
        for body in bodies { blackHole(try WebhookEnvelope(json: body).offlineMessageEvent()) }
    }
    stage("recipient read") { benchmark, fixture in
        let events = try fixture.events(benchmark.scaledIterations.count)
        benchmark.startMeasurement()
        for event in events { blackHole(try fixture.lookup(for: event)) }
    }
    stage("recipient read, all misses") { benchmark, fixture in
        let events = try fixture.events(benchmark.scaledIterations.count)
        benchmark.startMeasurement()
        for event in events { blackHole(try fixture.lookup(for: event, cached: false)) }
    }
    stage("plan + payloads") { benchmark, fixture in
        let events = try fixture.events(benchmark.scaledIterations.count)
        let lookups = try events.map { try fixture.lookup(for: $0) }
        let now = Date()
        benchmark.startMeasurement()
        for (event, lookup) in zip(events, lookups) { blackHole(fixture.planner.plan(event, lookup: lookup, now: now)) }
    }
    stage("accept, batches of 32") { benchmark, fixture in
        let batches = try fixture.acceptedEvents(benchmark.scaledIterations.count).batches(of: 32)
        benchmark.startMeasurement()
        for batch in batches { blackHole(try await fixture.store.acceptEvents(batch)) }
    }
    stage("claim, batches of 1000") { benchmark, fixture in
        try await fixture.queue(benchmark.scaledIterations.count)
        benchmark.startMeasurement()
        blackHole(try await fixture.claimAll())
    }
    stage("record sent, batches of 1000") { benchmark, fixture in
        try await fixture.queue(benchmark.scaledIterations.count)
        let outcomes = try await fixture.claimAll().map {
            let atMs = WallClock.milliseconds()
            let attempt = DeliveryAttempt(atMs: atMs, status: 200, reason: nil, error: nil, pushID: $0.pushID)
            return DeliveryOutcome(deliveryID: $0.id, state: .sent, atMs: atMs, attempt: attempt)
        }
        let batches = outcomes.batches(of: 1000)
        benchmark.startMeasurement()
        for batch in batches { blackHole(try await fixture.store.recordOutcomes(batch)) }
    }
}

/// One stage's benchmark on a fixture of its own (built in setup, unmeasured).
func stage(_ name: String, _ body: @escaping (Benchmark, StageFixture) async throws -> Void) {
    Benchmark(
        name,
        configuration: .init(
            metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .throughput],
            scalingFactor: .kilo, maxDuration: .seconds(10), maxIterations: 100),
        closure: body,
        setup: { try await StageFixture() },
        teardown: { StageFixture.removeFiles() })
}
