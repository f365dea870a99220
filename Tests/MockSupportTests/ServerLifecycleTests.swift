import MockSupport
import Synchronization
import Testing

@Suite(.timeLimit(.minutes(5))) struct ServerLifecycleTests {
    struct Refused: Error, Equatable { let why: String }

    /// A `stop()` that comes while the bind runs wins: what the bind made is released, the start
    /// fails, and the server stays stopped.
    @Test func aStopDuringTheBindReleasesWhatTheBindMade() async throws {
        let lifecycle = ServerLifecycle<Int>()
        let released = Mutex<[Int]>([])
        let (binding, bindingStarted) = AsyncStream<Void>.makeStream()
        let (proceed, letBindFinish) = AsyncStream<Void>.makeStream()
        let start = Task {
            try await lifecycle.start(alreadyStarted: Refused(why: "again"), stopped: Refused(why: "stopped")) {
                bindingStarted.yield()
                for await _ in proceed { break }
                return 42
            } release: { running in
                released.withLock { $0.append(running) }
            }
        }
        for await _ in binding { break }
        #expect(lifecycle.stop() == nil, "nothing was running yet")
        letBindFinish.yield()
        await #expect(throws: Refused(why: "stopped")) { try await start.value }
        #expect(released.withLock { $0 } == [42])
        #expect(lifecycle.running == nil)
        await #expect(throws: Refused(why: "again")) {
            try await lifecycle.start(alreadyStarted: Refused(why: "again"), stopped: Refused(why: "stopped")) {
                1
            } release: { _ in
            }
        }
    }

    @Test func aStartedServerRunsUntilStoppedAndAFailedBindMayBeRetried() async throws {
        let lifecycle = ServerLifecycle<Int>()
        await #expect(throws: Refused(why: "port in use")) {
            try await lifecycle.start(alreadyStarted: Refused(why: "again"), stopped: Refused(why: "stopped")) {
                throw Refused(why: "port in use")
            } release: { _ in
            }
        }
        let running = try await lifecycle.start(alreadyStarted: Refused(why: "again"), stopped: Refused(why: "stopped")) {
            7
        } release: { _ in
            Issue.record("a server that started is not released by start")
        }
        #expect(running == 7 && lifecycle.running == 7)
        #expect(lifecycle.stop() == 7)
        #expect(lifecycle.running == nil && lifecycle.stop() == nil)
    }
}
