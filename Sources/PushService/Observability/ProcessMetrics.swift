import Prometheus
import Synchronization

/// The standard `process_*` metrics of Prometheus clients, read from /proc at scrape time
/// (`ProcessStatistics`): `process_cpu_seconds_total`, `process_resident_memory_bytes`,
/// `process_virtual_memory_bytes`, `process_open_fds`, `process_max_fds`,
/// `process_start_time_seconds`. The CPU time is a counter, fed what was used since the last
/// scrape (as `RecipientCacheMetrics` feeds its counters).
final class ProcessMetrics: Sendable {
    private let reportedCPU = Mutex<Double>(0)

    private static func descriptor(_ name: String, _ help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(metricName: name, unitName: "", helpText: help)
    }

    func update(_ registry: PrometheusCollectorRegistry, from statistics: ProcessStatistics?) {
        guard let statistics else { return }
        // Two scrapes may race: each adds only what the other has not (never a negative step).
        let step = reportedCPU.withLock { reported in
            let step = max(0, statistics.cpuSeconds - reported)
            reported = max(reported, statistics.cpuSeconds)
            return step
        }
        registry.makeCounter(descriptor: Self.descriptor("process_cpu_seconds_total", "Total user and system CPU time spent in seconds"))
            .increment(by: step)
        func gauge(_ name: String, _ help: String, _ value: Double) {
            registry.makeGauge(descriptor: Self.descriptor(name, help)).set(value)
        }
        gauge("process_resident_memory_bytes", "Resident memory size in bytes", statistics.residentBytes)
        gauge("process_virtual_memory_bytes", "Virtual memory size in bytes", statistics.virtualBytes)
        gauge("process_start_time_seconds", "Start time of the process since unix epoch in seconds", statistics.startTimeSeconds)
        if let open = statistics.openFDs { gauge("process_open_fds", "Number of open file descriptors", Double(open)) }
        if let limit = statistics.maxFDs { gauge("process_max_fds", "Maximum number of open file descriptors", limit) }
    }
}
