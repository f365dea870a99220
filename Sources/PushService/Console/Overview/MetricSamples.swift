/// The samples of a Prometheus text exposition (what `GET /metrics` answers), read back: the
/// console's overview shows the very numbers `/metrics` gives, from the same registry, instead
/// of counting a second time. Comments, and lines that are not `name{labels} value`, are skipped.
struct MetricSamples: Sendable, Equatable {
    struct Sample: Sendable, Equatable {
        var name: String
        var labels: [String: String]
        var value: Double
    }

    var samples: [Sample]

    init(samples: [Sample]) {
        self.samples = samples
    }

    /// Parses exposition text; `keeping` limits the result to these metric names.
    init(exposition text: String, keeping names: Set<String>? = nil) {
        samples = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) where !line.hasPrefix("#") {
            guard let sample = Self.parse(line), names?.contains(sample.name) ?? true else { continue }
            samples.append(sample)
        }
    }

    /// The sum of every sample of `name` whose labels include `labels` (and pass `filter`); nil
    /// when the relay exports no such series.
    func sum(_ name: String, _ labels: [String: String] = [:], where filter: ([String: String]) -> Bool = { _ in true }) -> Double? {
        var total: Double?
        for sample in samples where sample.name == name && labels.allSatisfy({ sample.labels[$0.key] == $0.value }) && filter(sample.labels)
        {
            total = (total ?? 0) + sample.value
        }
        return total
    }

    static func parse(_ line: Substring) -> Sample? {
        guard let valueStart = line.lastIndex(of: " ") else { return nil }
        guard let value = Double(line[line.index(after: valueStart)...].trimmingSpaces) else { return nil }
        let series = line[..<valueStart].trimmingSpaces
        guard let brace = series.firstIndex(of: "{") else { return Sample(name: String(series), labels: [:], value: value) }
        guard series.last == "}", let labels = parseLabels(series[series.index(after: brace)..<series.index(before: series.endIndex)])
        else {
            return nil
        }
        return Sample(name: String(series[..<brace]), labels: labels, value: value)
    }

    /// `a="x",b="y\"z"`: values with Prometheus' escapes (`\\`, `\"`, `\n`).
    private static func parseLabels(_ text: Substring) -> [String: String]? {
        var labels: [String: String] = [:]
        var rest = text[...]
        while !rest.isEmpty {
            guard let equals = rest.firstIndex(of: "=") else { return nil }
            let name = String(rest[..<equals].trimmingSpaces)
            rest = rest[rest.index(after: equals)...]
            guard rest.first == "\"" else { return nil }
            rest = rest.dropFirst()
            var value = ""
            var closed = false
            while let character = rest.first {
                rest = rest.dropFirst()
                if character == "\"" {
                    closed = true
                    break
                }
                if character == "\\", let next = rest.first {
                    rest = rest.dropFirst()
                    value.append(next == "n" ? "\n" : next)
                } else {
                    value.append(character)
                }
            }
            guard closed else { return nil }
            labels[name] = value
            if rest.first == "," { rest = rest.dropFirst() }
        }
        return labels
    }
}

extension Substring {
    fileprivate var trimmingSpaces: Substring {
        var text = self
        while text.first == " " { text = text.dropFirst() }
        while text.last == " " { text = text.dropLast() }
        return text
    }
}
