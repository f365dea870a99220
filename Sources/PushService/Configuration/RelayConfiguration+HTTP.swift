import ConfigSupport

extension RelayConfiguration {
    /// `http:`.
    static func parseHTTP(_ map: ConfigMapping) throws(ConfigurationError) -> HTTPConfiguration {
        try map.allowOnly(["max_body_bytes", "max_connections", "header_timeout", "body_timeout", "idle_timeout", "send_timeout"])
        func int(_ key: String, in allowed: ClosedRange<Int>) throws(ConfigurationError) -> Int? {
            guard let value = try map.int(key) else { return nil }
            guard allowed.contains(value) else {
                throw .invalidValue(key: map.name(key), reason: "must be \(allowed.lowerBound)...\(allowed.upperBound)")
            }
            return value
        }
        var http = HTTPConfiguration()
        if let limit = try int("max_body_bytes", in: HTTPConfiguration.allowedMaxBodyBytes) { http.maxBodyBytes = limit }
        if let limit = try int("max_connections", in: HTTPConfiguration.allowedMaxConnections) { http.maxConnections = limit }
        if let timeout = try map.duration("header_timeout", in: HTTPConfiguration.allowedHeaderTimeout, "1s...5m") {
            http.headerTimeout = timeout
        }
        if let timeout = try map.duration("body_timeout", in: HTTPConfiguration.allowedBodyTimeout, "1s...10m") {
            http.bodyTimeout = timeout
        }
        if let timeout = try map.duration("idle_timeout", in: HTTPConfiguration.allowedIdleTimeout, "1s...1h") {
            http.idleTimeout = timeout
        }
        if let timeout = try map.duration("send_timeout", in: HTTPConfiguration.allowedSendTimeout, "1s...10m") {
            http.sendTimeout = timeout
        }
        return http
    }
}
