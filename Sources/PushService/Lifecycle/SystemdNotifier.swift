#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Foundation

/// The sd_notify protocol spoken directly: datagrams such as `READY=1` sent to the unix socket
/// named by `$NOTIFY_SOCKET` (a path, or an abstract name written with a leading "@").
/// Without `NOTIFY_SOCKET` (not started by systemd with Type=notify) every call does nothing.
public struct SystemdNotifier: Sendable {
    /// The socket address as given in `NOTIFY_SOCKET`; nil when notifications are off.
    public let socketAddress: String?
    /// `WATCHDOG_USEC` when the watchdog is on for this process (`WATCHDOG_PID` unset or ours).
    public let watchdogInterval: Duration?

    public init(environment: [String: String] = ProcessInfo.processInfo.environment, pid: Int32 = getpid()) {
        let address = environment["NOTIFY_SOCKET"]
        socketAddress = (address?.isEmpty ?? true) ? nil : address
        if let text = environment["WATCHDOG_USEC"], let micros = Int64(text), micros > 0,
            environment["WATCHDOG_PID"].map({ Int32($0) == pid }) ?? true
        {
            watchdogInterval = .microseconds(micros)
        } else {
            watchdogInterval = nil
        }
    }

    public var isEnabled: Bool { socketAddress != nil }

    /// Sends `READY=1` and an optional status line.
    public func ready(status: String? = nil) { send(["READY=1"] + (status.map { ["STATUS=\($0)"] } ?? [])) }
    public func stopping(status: String? = nil) { send(["STOPPING=1"] + (status.map { ["STATUS=\($0)"] } ?? [])) }
    public func reloading(status: String? = nil) { send(["RELOADING=1"] + (status.map { ["STATUS=\($0)"] } ?? [])) }
    /// Never waits: a ping the socket has no room for (systemd behind, or a listener that does not
    /// read) is dropped, where a blocking send would stall a thread of the relay every interval.
    /// The next ping follows within half the watchdog interval.
    public func watchdog() { send(["WATCHDOG=1"], waiting: false) }
    public func status(_ text: String) { send(["STATUS=\(text)"]) }

    /// Sends one datagram of `KEY=value` lines. Failures are ignored on purpose: systemd not
    /// listening must never stop the service (sd_notify(3) behaves the same).
    /// When the socket's queue is full, waits up to a second for room, or with `waiting: false`
    /// drops the datagram at once.
    @discardableResult
    public func send(_ assignments: [String], waiting: Bool = true) -> Bool {
        guard let socketAddress, !assignments.isEmpty else { return false }
        let message = Array((assignments.joined(separator: "\n") + "\n").utf8)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var pathBytes = Array(socketAddress.utf8)
        let abstract = pathBytes.first == UInt8(ascii: "@")
        if abstract { pathBytes[0] = 0 }
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard pathBytes.count < capacity else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in pathBytes.enumerated() { raw[index] = byte }
        }
        // Abstract names are not NUL-terminated: the length says where they end.
        let length = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + pathBytes.count + (abstract ? 0 : 1))
        #if canImport(Glibc)
            let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        #else
            let fd = socket(AF_UNIX, SOCK_DGRAM, 0)
        #endif
        guard fd >= 0 else { return false }
        defer { close(fd) }
        // A listener that stopped reading holds a waiting send for at most a second, not forever.
        var timeout = timeval(tv_sec: 1, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let sent = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                message.withUnsafeBytes { sendto(fd, $0.baseAddress, $0.count, waiting ? 0 : Int32(MSG_DONTWAIT), socketAddress, length) }
            }
        }
        return sent == message.count
    }
}
