import PushEngine
import ServiceLifecycle

/// Runs the notifications' fan-out beside the server until the relay stops. A batch under way
/// when it stops is committed or not at all: the next start goes on from the last committed one.
struct NotificationFanOutService: Service {
    let fanOut: NotificationFanOut

    func run() async throws {
        await cancelWhenGracefulShutdown { await fanOut.run() }
    }
}
