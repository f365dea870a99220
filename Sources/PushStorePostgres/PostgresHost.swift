import StoreContract

#if canImport(Glibc)
    import Glibc
#endif

/// What the host of a PostgreSQL URL says about where the server is.
enum PostgresHost {
    /// Whether `host` is this machine: `localhost`, a loopback address (127.0.0.0/8, `::1`,
    /// `::ffff:127.x.x.x`) or a Unix socket's directory (a path). Connections to it never leave
    /// the machine, so they need no TLS.
    static func isLocal(_ host: String) -> Bool {
        if host.hasPrefix("/") { return true }
        var name = host.lowercased()
        if name.hasSuffix(".") { name.removeLast() }
        if name == "localhost" { return true }
        if name.hasPrefix("["), name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
        var v4 = in_addr()
        if inet_pton(AF_INET, name, &v4) == 1 {
            return UInt32(bigEndian: v4.s_addr) >> 24 == 127
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, name, &v6) == 1 else { return false }
        let bytes = withUnsafeBytes(of: &v6) { Array($0) }
        let loopback: [UInt8] = Array(repeating: 0, count: 15) + [1]
        let mappedV4Loopback = bytes[0..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xFF && bytes[11] == 0xFF && bytes[12] == 127
        return bytes == loopback || mappedV4Loopback
    }
}
