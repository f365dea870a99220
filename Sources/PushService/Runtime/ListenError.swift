#if canImport(Glibc)
    import Glibc
#endif

/// `listen:` could not be bound (the port taken, the address not this host's, a privileged port):
/// said in one line naming the address, instead of the socket call's own error.
public struct ListenError: Error, Sendable, CustomStringConvertible {
    public let listen: ListenConfiguration
    public let errno: Int32

    public var description: String {
        "cannot listen on \(listen.hostForURL):\(listen.port): \(String(cString: strerror(errno)))"
    }

    /// The errors of `bind` that the configuration (or another process) causes.
    static let bindErrors: Set<Int32> = [EADDRINUSE, EADDRNOTAVAIL, EACCES]
}
