import Foundation
import Synchronization
#if canImport(Glibc)
    import Glibc
#endif

/// The thread-safe face of one HTTP/2 connection.
///
/// The connection itself (socket, `SSL*`, `nghttp2_session*`) lives on its own thread in a
/// `ConnectionLoop`; other tasks only hand it requests through this lock-protected inbox and wake
/// it through a self-pipe.
final class HTTP2Connection: Sendable {
    let id: Int
    /// Requests queued or in flight here; the pool fills the first connection up to `ConnectionPool.fillLoad`, then the least loaded.
    let load = Atomic<Int>(0)
    /// Current effective stream limit (0 until the server's SETTINGS arrive).
    let maxStreams = Atomic<Int>(0)
    let streamsInFlight = Atomic<Int>(0)
    /// `acceptingHint` mirrors `Shared.accepting` (written under the lock); both are read
    /// without the lock: the pool reads `isAccepting` for every request while choosing a connection
    /// and the connection thread reads `isShutdownRequested` on every turn of its loop; taking
    /// the lock there made the dispatching tasks and the connection thread contend (in `perf`,
    /// `Mutex.lockSlow` was 8 % of the relay's sending threads). `isAccepting` is a hint: `enqueue`
    /// decides under the lock.
    private let acceptingHint = Atomic<Bool>(true)
    private let shutdownHint = Atomic<Bool>(false)
    /// Mirrors `Shared.retireReason != nil`, so the thread's every turn costs no lock.
    private let retireHint = Atomic<Bool>(false)
    /// The `authorization` generation of the first request sent here (0 before one): APNs holds a
    /// connection to its first token, so only a connection that started on an older one is
    /// retired for refusing a newer one (`ConnectionPool.retire`).
    let firstTokenGeneration = Atomic<UInt64>(0)

    private struct Shared {
        var inbox: [PendingRequest] = []
        var accepting = true
        var closed = false
        /// The thread is (about to be) blocked in poll and needs a wake-up for new work. While it
        /// runs it drains the inbox on its own, so enqueueing costs no syscall.
        var sleeping = false
        /// Why the client asked this connection to retire, until the thread takes it.
        var retireReason: String?
    }
    private let shared = Mutex(Shared())
    /// Read end of the wake-up pipe: the connection thread polls it.
    let wakeFD: Int32
    /// Write end. Both ends are closed only in `deinit`: whoever signals holds this object, so a
    /// late wake-up never writes to a descriptor number reused for something else, and
    /// `enqueue` can write after releasing the lock. (Written under the lock, the connection
    /// thread woken by the first of a batch of requests blocked on the lock while the pipe
    /// write finished: the lock's slow path was 5 % of the relay's CPU at 800 events/s.)
    private let wakeWriteFD: Int32

    /// Nil when no descriptor is left for the wake-up pipe (the process is out of files).
    init?(id: Int) {
        self.id = id
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return nil }
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        wakeFD = fds[0]
        wakeWriteFD = fds[1]
    }

    /// Queues a request; false when the connection no longer takes new work.
    func enqueue(_ request: PendingRequest) -> Bool {
        let (accepted, wake) = shared.withLock { s -> (Bool, Bool) in
            guard s.accepting else { return (false, false) }
            s.inbox.append(request)
            defer { s.sleeping = false }
            return (true, s.sleeping && !s.closed)
        }
        if wake { signal() }
        if accepted { load.add(1, ordering: .relaxed) }
        return accepted
    }

    deinit {
        close(wakeFD)
        close(wakeWriteFD)
    }

    var isAccepting: Bool { acceptingHint.load(ordering: .relaxed) }

    /// Asks the thread to finish in-flight streams and exit.
    func requestShutdown() {
        shared.withLock { s in
            shutdownHint.store(true, ordering: .releasing)
            s.accepting = false
            acceptingHint.store(false, ordering: .relaxed)
            if !s.closed { signal() }
        }
    }

    func wake() { shared.withLock { s in if !s.closed { signal() } } }

    /// Asks the thread to take no new streams, finish the ones in flight and close, as after
    /// GOAWAY; new work goes elsewhere at once and the pool opens a connection in its place.
    /// Once per connection: later calls do nothing.
    func requestRetire(reason: String) {
        shared.withLock { s in
            guard s.accepting, !s.closed else { return }
            s.accepting = false
            acceptingHint.store(false, ordering: .relaxed)
            s.retireReason = reason
            retireHint.store(true, ordering: .releasing)
            signal()
        }
    }

    /// The connection thread's: the reason of a retirement asked for, once.
    func takeRetireRequest() -> String? {
        guard retireHint.load(ordering: .acquiring) else { return nil }
        return shared.withLock { s in
            retireHint.store(false, ordering: .relaxed)
            defer { s.retireReason = nil }
            return s.retireReason
        }
    }

    // MARK: called by the connection thread

    var isShutdownRequested: Bool { shutdownHint.load(ordering: .acquiring) }

    /// Called before poll: false when work is already waiting (then don't block). The thread is
    /// awake again once it returns from poll; the next `takeInbox` says so, in the same lock.
    func prepareToSleep() -> Bool {
        shared.withLock { s in
            guard s.inbox.isEmpty else { return false }
            s.sleeping = true
            return true
        }
    }

    /// The queued requests, swapped with `spare` (an empty array whose capacity is reused, so
    /// neither side allocates once both have grown). Also marks the thread awake: enqueueing
    /// needs no wake-up until the next `prepareToSleep`.
    func takeInbox(swappingWith spare: inout [PendingRequest]) {
        shared.withLock { s in
            s.sleeping = false
            swap(&s.inbox, &spare)
        }
    }

    /// Fails queued requests whose deadline passed (used while the thread waits to connect).
    func expireQueued(now: ContinuousClock.Instant) {
        let expired = shared.withLock { s in s.inbox.filter { $0.deadline <= now } }
        for request in expired { request.complete(.failure(.timedOut)) }
    }

    /// Stops taking work (GOAWAY, failure) and returns what was queued.
    func stopAccepting() -> [PendingRequest] {
        shared.withLock { s in
            s.accepting = false
            acceptingHint.store(false, ordering: .relaxed)
            defer { s.inbox.removeAll() }
            return s.inbox
        }
    }

    /// Final step of the thread: no more wake-ups; returns leftovers.
    func markClosed() -> [PendingRequest] {
        shared.withLock { s in
            s.accepting = false
            acceptingHint.store(false, ordering: .relaxed)
            s.closed = true
            defer { s.inbox.removeAll() }
            return s.inbox
        }
    }

    func drainWakeups() {
        var buffer = (UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        while withUnsafeMutableBytes(of: &buffer, { read(wakeFD, $0.baseAddress, $0.count) }) > 0 {}
    }

    /// Safe with or without the lock: the descriptors live as long as this object.
    private func signal() {
        var one: UInt8 = 1
        _ = write(wakeWriteFD, &one, 1)
    }
}
