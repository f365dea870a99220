import Foundation

extension TestPushReport {
    /// The report for a terminal (`push-relay test-push`): a row per device, then each device's
    /// error, if any. What providers wrote is escaped (`LogText`): no control character reaches
    /// the terminal.
    public var table: String {
        let header = ["PROVIDER", "DEVICE TOKEN", "STATUS", "HTTP", "REASON", "PROVIDER MESSAGE ID", "LATENCY"]
        let rows = results.map { result in
            [
                result.provider.rawValue, result.deviceToken,
                result.status.rawValue + (result.tokenRemoved ? " (token removed)" : ""),
                result.httpStatus.map(String.init) ?? "-", result.reason.map(Self.shown) ?? "-",
                result.providerMessageID.map(Self.shown) ?? "-", result.latencyMs.map { "\($0) ms" } ?? "-",
            ]
        }
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        var lines = ([header] + rows).map { row in
            zip(row, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined(separator: "  ")
                .trimmingTrailingSpaces
        }
        for result in results {
            if let error = result.error { lines.append("\(result.provider.rawValue) \(result.deviceToken): \(Self.shown(error))") }
        }
        return lines.joined(separator: "\n")
    }

    private static func shown(_ text: String) -> String { LogText.escape(text) }
}

extension String {
    fileprivate var trimmingTrailingSpaces: String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
