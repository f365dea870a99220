import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A unix datagram socket standing in for systemd's `$NOTIFY_SOCKET`: a path, or an abstract
/// name ("@…"). `receive` waits (with a deadline) for the next datagram.
final class NotifySocket: Sendable {
    let fd: Int32
    /// The value for `NOTIFY_SOCKET`.
    let address: String

    init(path: String? = nil, abstractName: String? = nil) throws {
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        var bytes: [UInt8]
        if let abstractName {
            bytes = [0] + Array(abstractName.utf8)
            address = "@" + abstractName
        } else {
            bytes = Array(path!.utf8) + [0]
            address = path!
        }
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in for (i, b) in bytes.enumerated() { raw[i] = b } }
        let length = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + bytes.count - (abstractName == nil ? 1 : 0))
        let bound = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        guard bound == 0 else { close(fd); throw POSIXError(.EADDRINUSE) }
    }

    deinit { close(fd) }

    /// The next datagram's text, or nil when none arrives within `seconds`.
    func receive(within seconds: Int = 30) -> String? {
        var pollfd = Glibc.pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&pollfd, 1, Int32(seconds * 1000)) == 1 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = recv(fd, &buffer, buffer.count, 0)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count], as: UTF8.self)
    }

    /// Receives datagrams until one contains `line` (returns all received), or nil at the deadline.
    func receive(until line: String, within seconds: Int = 60) -> [String]? {
        let deadline = Date().addingTimeInterval(TimeInterval(seconds))
        var received: [String] = []
        while Date() < deadline {
            guard let message = receive(within: max(1, Int(deadline.timeIntervalSinceNow))) else { return nil }
            received.append(message)
            if message.split(separator: "\n").contains(Substring(line)) { return received }
        }
        return nil
    }
}
