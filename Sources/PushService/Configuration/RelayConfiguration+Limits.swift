import ConfigSupport

extension RelayConfiguration {
    /// `apps[].limits`.
    static func parseLimits(_ map: ConfigMapping) throws(ConfigurationError) -> AppLimits {
        try map.allowOnly([
            "max_members_per_event", "max_channel_preferences_per_user", "api_token_requests_per_second",
            "session_token_requests_per_second", "max_session_lifetime", "test_pushes_per_minute",
        ])
        func limit(_ key: String, in allowed: ClosedRange<Int> = AppLimits.allowed) throws(ConfigurationError) -> Int? {
            guard let value = try map.int(key) else { return nil }
            guard allowed.contains(value) else {
                throw .invalidValue(key: map.name(key), reason: "must be \(allowed.lowerBound)...\(allowed.upperBound)")
            }
            return value
        }
        var limits = AppLimits()
        if let value = try limit("max_members_per_event") { limits.maxMembersPerEvent = value }
        if let value = try limit("max_channel_preferences_per_user") { limits.maxChannelPreferencesPerUser = value }
        if let value = try limit("api_token_requests_per_second", in: AppLimits.allowedRequestsPerSecond) {
            limits.apiTokenRequestsPerSecond = value
        }
        if let value = try limit("session_token_requests_per_second", in: AppLimits.allowedRequestsPerSecond) {
            limits.sessionTokenRequestsPerSecond = value
        }
        if let value = try limit("test_pushes_per_minute", in: AppLimits.allowedTestPushesPerMinute) {
            limits.testPushesPerMinute = value
        }
        if let lifetime = try map.duration("max_session_lifetime", in: AppLimits.allowedSessionLifetime, "60s...365d") {
            limits.maxSessionLifetime = lifetime
        }
        return limits
    }
}
