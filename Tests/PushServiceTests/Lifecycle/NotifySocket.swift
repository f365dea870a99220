import Foundation
import TestSupport
import Synchronization
#if canImport(Glibc)
    import Glibc
#endif

/// A unix datagram socket standing in for systemd's `$NOTIFY_SOCKET`: a path, or an abstract
/// name ("@…"). Like systemd, it reads every datagram as it arrives (on a thread of its own), so
/// the socket's small queue never fills and a sender never waits; `receive` hands them out in
/// order. `reading: false` leaves the queue alone, for a listener that has stopped reading.
final class NotifySocket: Sendable {
    /// The value for `NOTIFY_SOCKET`.
    let address: String
    private let fd: Int32
    private let inbox = Inbox()
    private let reading: Bool

    private final class Inbox: Sendable {
        let state = Mutex<(datagrams: [String], taken: Int, closed: Bool)>(([], 0, false))
    }

    init(path: String? = nil, abstractName: String? = nil, reading: Bool = true) throws {
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
        let fd = fd
        let bound = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        guard bound == 0 else { close(fd); throw POSIXError(.EADDRINUSE) }
        self.reading = reading
        if reading {
            let inbox = inbox
            Thread { Self.read(fd, into: inbox) }.start()
        }
    }

    deinit {
        // The reader closes the descriptor itself once it sees `closed`: never under its recv.
        if reading { inbox.state.withLock { $0.closed = true } } else { close(fd) }
    }

    private static func read(_ fd: Int32, into inbox: Inbox) {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !inbox.state.withLock({ $0.closed }) {
            var pollfd = Glibc.pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&pollfd, 1, 100) == 1 else { continue }
            let count = recv(fd, &buffer, buffer.count, 0)
            guard count > 0 else { continue }
            let text = String(decoding: buffer[..<count], as: UTF8.self)
            inbox.state.withLock { $0.datagrams.append(text) }
        }
        close(fd)
    }

    /// The next datagram's text, or nil when none arrives within `seconds`.
    func receive(within seconds: Int = 30) async -> String? {
        var next: String?
        _ = await eventually(within: Double(seconds)) {
            next = inbox.state.withLock { state in
                guard state.taken < state.datagrams.count else { return nil }
                state.taken += 1
                return state.datagrams[state.taken - 1]
            }
            return next != nil
        }
        return next
    }

    /// Receives datagrams until one contains `line` (returns all received), or nil at the deadline.
    func receive(until line: String, within seconds: Int = 60) async -> [String]? {
        let deadline = Date().addingTimeInterval(TimeInterval(seconds))
        var received: [String] = []
        while Date() < deadline {
            guard let message = await receive(within: max(1, Int(deadline.timeIntervalSinceNow))) else { return nil }
            received.append(message)
            if message.split(separator: "\n").contains(Substring(line)) { return received }
        }
        return nil
    }
}
