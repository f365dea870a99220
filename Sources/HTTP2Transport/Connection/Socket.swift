import Foundation
#if canImport(Glibc)
    import Glibc
#endif

/// Plain non-blocking TCP helpers for the connection thread.
enum Socket {
    /// Resolves `host` afresh (Apple asks for an uncached lookup per connection) and connects to
    /// the first address that answers within `timeout`. Returns a non-blocking socket.
    static func connect(
        host: String, port: Int, timeout: Duration, interrupt: Int32,
        checkIn: () -> Bool
    ) throws(HTTP2TransportError) -> Int32 {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_protocol = Int32(IPPROTO_TCP)
        var list: UnsafeMutablePointer<addrinfo>?
        let rc = getaddrinfo(host, String(port), &hints, &list)
        guard rc == 0, let first = list else {
            throw .connectFailed("cannot resolve \(host): \(String(cString: gai_strerror(rc)))")
        }
        defer { freeaddrinfo(list) }
        var lastError = "no address for \(host)"
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        let deadline = ContinuousClock.now + timeout
        while let ai = cursor {
            cursor = ai.pointee.ai_next
            let fd = socket(
                ai.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else { lastError = "socket: \(errnoString())"; continue }
            var one: Int32 = 1
            setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
            if Glibc.connect(fd, ai.pointee.ai_addr, ai.pointee.ai_addrlen) == 0 { return fd }
            guard errno == EINPROGRESS else {
                lastError = "connect to \(host):\(port): \(errnoString())"
                close(fd)
                continue
            }
            switch wait(fd: fd, events: Int16(POLLOUT), until: deadline, interrupt: interrupt, checkIn: checkIn) {
            case .ready:
                var soError: Int32 = 0
                var len = socklen_t(MemoryLayout<Int32>.size)
                // A failed getsockopt leaves soError 0: take its errno rather than a socket
                // that may not be connected.
                if getsockopt(fd, SOL_SOCKET, SO_ERROR, &soError, &len) != 0 { soError = errno }
                if soError == 0 { return fd }
                lastError = "connect to \(host):\(port): \(String(cString: strerror(soError)))"
            case .timedOut:
                lastError = "connect to \(host):\(port): timed out"
            case .interrupted:
                close(fd)
                throw .shutdown
            }
            close(fd)
        }
        throw .connectFailed(lastError)
    }

    enum WaitResult { case ready, timedOut, interrupted }

    /// Waits for `events` on `fd` until `deadline`. Wake-ups on the interrupt pipe (new work
    /// arriving) are consumed. `checkIn` runs after every wake-up and at least every 100 ms, so
    /// the caller can expire requests waiting for this connection; it returns true to end the
    /// wait early (shutdown).
    static func wait(
        fd: Int32, events: Int16, until deadline: ContinuousClock.Instant, interrupt: Int32,
        checkIn: () -> Bool
    ) -> WaitResult {
        while true {
            let remaining = deadline - ContinuousClock.now
            if remaining <= .zero { return .timedOut }
            var fds = [pollfd(fd: fd, events: events, revents: 0), pollfd(fd: interrupt, events: Int16(POLLIN), revents: 0)]
            let rc = poll(&fds, 2, Int32(clamping: min(100, remaining.milliseconds + 1)))
            if rc < 0 && errno == EINTR { continue }
            if fds[1].revents != 0 {
                var buffer = (UInt64(0), UInt64(0), UInt64(0), UInt64(0))
                while withUnsafeMutableBytes(of: &buffer, { read(interrupt, $0.baseAddress, $0.count) }) > 0 {}
            }
            if checkIn() { return .interrupted }
            if fds[0].revents != 0 { return .ready }
        }
    }

    static func errnoString() -> String { String(cString: strerror(errno)) }
}

extension Duration {
    /// Whole milliseconds, rounded down.
    var milliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}
