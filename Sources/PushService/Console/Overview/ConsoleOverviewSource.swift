/// Where the overview's numbers come from: the relay's metrics exposition (what `/metrics`
/// answers, `ObservabilityRoutes.exposition`) and the readings of its counters an hour ago
/// (`CounterHistory`).
struct ConsoleOverviewSource: Sendable {
    let exposition: @Sendable () async -> String
    let history: CounterHistory

    /// The figures of `app` now, and the baseline's time (nil: since the relay started).
    func figures(app: String) async -> (figures: OverviewFigures, sinceMs: Int64?) {
        let now = MetricSamples(exposition: await exposition())
        let baseline = history.baseline()
        return (OverviewFigures(app: app, now: now, baseline: baseline?.samples), baseline?.wallMs)
    }
}
