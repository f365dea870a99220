/// Connections in an app's pool to a push provider (`apps[].apns.pool_size`,
/// `apps[].fcm.pool_size`, …). One default and one bound for every provider: each connection
/// costs the same here (a TLS session, a descriptor, `DescriptorBudget`) whoever is at the other end.
public enum ProviderPoolSize {
    /// Two, as the HTTP/2 transport's own default (`TransportDefaults.connections`), whichever client the pool is for.
    public static let defaultSize = 2
    public static let allowed = 1...64
}

extension ConfigMapping {
    /// `pool_size`, which must lie in `allowed` (a provider's by default); nil when not given.
    public func poolSize(in allowed: ClosedRange<Int> = ProviderPoolSize.allowed) throws(ConfigurationError) -> Int? {
        guard let size = try int("pool_size") else { return nil }
        guard allowed.contains(size) else {
            throw .invalidValue(key: name("pool_size"), reason: "must be \(allowed.lowerBound)...\(allowed.upperBound)")
        }
        return size
    }
}
