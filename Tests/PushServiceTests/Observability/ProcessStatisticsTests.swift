import Foundation
import Testing
@testable import PushService

/// The `process_*` figures parsed from /proc texts as Linux writes them, and read from this
/// process's own /proc.
@Suite(.timeLimit(.minutes(5))) struct ProcessStatisticsTests {
    /// A command name with spaces and parentheses: fields are counted from the last `)`.
    static let stat = """
        4242 (push (relay) x) S 1 4242 4242 0 -1 4194560 2051 0 0 0 250 130 0 0 20 0 9 0 1257334 \
        734003200 12800 18446744073709551615 1 1 0 0 0 0 0 4096 17926 0 0 0 17 1 0 0 0 0 0 0 0 0 0 0 0 0 0

        """

    static let limits = """
        Limit                     Soft Limit           Hard Limit           Units
        Max cpu time              unlimited            unlimited            seconds
        Max open files            20000                524288               files
        Max locked memory         8388608              8388608              bytes

        """

    @Test func theStatLineIsReadFromItsLastParenthesis() throws {
        let stat = try #require(ProcessStatistics.parseStat(Self.stat))
        #expect(stat == .init(utimeTicks: 250, stimeTicks: 130, startTicks: 1_257_334, virtualBytes: 734_003_200, residentPages: 12_800))
    }

    @Test func figuresAreInSecondsAndBytes() throws {
        let statistics = try #require(
            ProcessStatistics.parse(
                stat: Self.stat, limits: Self.limits, bootTime: 1_795_825_916, clockTicks: 100, pageSize: 4096, openFDs: 37))
        #expect(statistics.cpuSeconds == 3.8)
        #expect(statistics.residentBytes == 12_800 * 4096)
        #expect(statistics.virtualBytes == 734_003_200)
        #expect(statistics.startTimeSeconds == 1_795_825_916 + 12_573.34)
        #expect(statistics.openFDs == 37)
        #expect(statistics.maxFDs == 20_000, "the soft limit")
    }

    @Test func limitsAndBootTimeAreFoundByTheirLine() {
        #expect(ProcessStatistics.parseMaxOpenFiles(Self.limits) == 20_000)
        let unlimited = "Max open files            unlimited            unlimited            files\n"
        #expect(ProcessStatistics.parseMaxOpenFiles(unlimited) == .infinity)
        #expect(ProcessStatistics.parseMaxOpenFiles("Max cpu time unlimited unlimited seconds\n") == nil)
        #expect(ProcessStatistics.parseBootTime("cpu  1 2 3\nintr 5\nbtime 1795825916\nprocesses 7\n") == 1_795_825_916)
        #expect(ProcessStatistics.parseBootTime("cpu  1 2 3\n") == nil)
    }

    @Test(arguments: ["", "4242 (relay", "4242 (relay) S 1 2", "4242 (relay) S 1 2 3 4 5 6 7 8 9 10 x 130 0 0 0 0 0 0 1 2 3"])
    func aTruncatedOrGarbledStatIsNoFigure(_ text: String) {
        #expect(ProcessStatistics.parseStat(text) == nil)
        #expect(
            ProcessStatistics.parse(stat: text, limits: nil, bootTime: 0, clockTicks: 100, pageSize: 4096, openFDs: nil) == nil)
    }

    /// This test's own process, through /proc: what `/metrics` shows of the relay.
    @Test func theProcessReadsItsOwnFigures() throws {
        #if os(Linux)
            let statistics = try #require(ProcessStatistics.current())
            let now = Date().timeIntervalSince1970
            #expect(statistics.residentBytes > 1_000_000)
            #expect(statistics.virtualBytes >= statistics.residentBytes)
            #expect(statistics.cpuSeconds > 0)
            #expect(statistics.startTimeSeconds > now - 86_400 && statistics.startTimeSeconds <= now + 1, "\(statistics)")
            let open = try #require(statistics.openFDs)
            let max = try #require(statistics.maxFDs)
            #expect(open >= 3 && Double(open) <= max, "\(statistics)")
        #endif
    }
}

/// The figures as Prometheus metrics: gauges set, CPU time a counter that only goes up.
@Suite(.timeLimit(.minutes(5))) struct ProcessMetricsTests {
    static func sample(cpu: Double) -> ProcessStatistics {
        ProcessStatistics(
            cpuSeconds: cpu, residentBytes: 52_428_800, virtualBytes: 734_003_200, startTimeSeconds: 1_795_838_489.34, openFDs: 37,
            maxFDs: 20_000)
    }

    @Test func theStandardNamesCarryTheFigures() {
        let registry = PrometheusTestRegistry()
        let metrics = ProcessMetrics()
        metrics.update(registry.registry, from: Self.sample(cpu: 3.5))
        let text = registry.text
        for line in [
            "process_cpu_seconds_total 3.5", "process_resident_memory_bytes 52428800.0", "process_virtual_memory_bytes 734003200.0",
            "process_start_time_seconds 1795838489.34", "process_open_fds 37.0", "process_max_fds 20000.0",
        ] {
            #expect(text.contains(line + "\n"), "\(line) in\n\(text)")
        }
        #expect(text.contains("# TYPE process_cpu_seconds_total counter"), "\(text)")
    }

    /// Each scrape adds the CPU time used since the last; a scrape that read an older figure
    /// (it raced another) adds nothing.
    @Test func cpuTimeOnlyGrows() {
        let registry = PrometheusTestRegistry()
        let metrics = ProcessMetrics()
        metrics.update(registry.registry, from: Self.sample(cpu: 3.5))
        metrics.update(registry.registry, from: Self.sample(cpu: 4.25))
        metrics.update(registry.registry, from: Self.sample(cpu: 4.0))
        #expect(registry.text.contains("process_cpu_seconds_total 4.25\n"), "\(registry.text)")
    }

    @Test func noFiguresNoMetrics() {
        let registry = PrometheusTestRegistry()
        ProcessMetrics().update(registry.registry, from: nil)
        #expect(!registry.text.contains("process_"))
    }
}
