import PushCore
import Synchronization

/// At most `slotsPerApp` of an app's costly requests (those costing more than one unit:
/// `RequestCost`) run at once on this relay in each lane; up to `maximumWaiting` more wait their
/// turn, first come first served, and beyond that the answer is 429. Units bound how often an app
/// may ask for work; this bounds how much of the relay that work holds at a time, whatever the
/// size of the app's log: one app's log lists and erasures take two cores and two database readers
/// at most, and the other apps' requests find the rest.
///
/// The app's servers (API tokens, console) and its devices (session tokens) have a lane each, so
/// a device reading its own lists at its session's rate cannot keep the app's server waiting.
final class CostlyRequestSlots: Sendable {
    static let slotsPerApp = 1
    static let maximumWaiting = 8

    enum Lane: Sendable, Hashable {
        case server
        case device
    }

    private struct Key: Hashable {
        var app: ExactID
        var lane: Lane
    }

    private struct AppSlots {
        var running = 0
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let apps = Mutex<[Key: AppSlots]>([:])

    /// Waits for one of `app`'s slots in `lane`; throws 429 when too many already wait.
    func enter(app: String, lane: Lane = .server) async throws(APIError) {
        let key = Key(app: ExactID(app), lane: lane)
        enum Entry { case run, wait, full }
        let entry = apps.withLock { apps -> Entry in
            var slots = apps[key, default: AppSlots()]
            defer { apps[key] = slots }
            if slots.running < Self.slotsPerApp {
                slots.running += 1
                return .run
            }
            return slots.waiting.count < Self.maximumWaiting ? .wait : .full
        }
        switch entry {
        case .run: return
        case .full:
            throw APIError(
                status: .tooManyRequests, code: .rateLimitExceeded,
                message: "Too many of this app's costly requests (delivery-log lists, erasures) at once; retry after 1 s.",
                retryAfterSeconds: 1)
        case .wait:
            await withCheckedContinuation { continuation in
                let runNow = apps.withLock { apps -> Bool in
                    var slots = apps[key, default: AppSlots()]
                    defer { apps[key] = slots }
                    // A slot freed between the two locks: take it.
                    if slots.running < Self.slotsPerApp {
                        slots.running += 1
                        return true
                    }
                    slots.waiting.append(continuation)
                    return false
                }
                if runNow { continuation.resume() }
            }
        }
    }

    /// How many of `app`'s requests wait for a slot in `lane`.
    func waiting(app: String, lane: Lane = .server) -> Int {
        apps.withLock { $0[Key(app: ExactID(app), lane: lane)]?.waiting.count ?? 0 }
    }

    /// Gives the slot back, to the next waiter if any (which then holds it).
    func leave(app: String, lane: Lane = .server) {
        let key = Key(app: ExactID(app), lane: lane)
        let next = apps.withLock { apps -> CheckedContinuation<Void, Never>? in
            guard var slots = apps[key] else { return nil }
            defer { apps[key] = slots.running == 0 && slots.waiting.isEmpty ? nil : slots }
            if !slots.waiting.isEmpty { return slots.waiting.removeFirst() }
            slots.running -= 1
            return nil
        }
        next?.resume()
    }
}
