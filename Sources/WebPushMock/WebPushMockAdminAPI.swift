import Foundation
import MockSupport

/// The admin control surface: plaintext HTTP/1.1 on 127.0.0.1, JSON in and out: the routes
/// `MockAdminControl` lists, with `WebPushMockStats`, `RecordedPush` and `WebPushMockFaults`, and
///
/// - `POST /subscriptions`: a new subscription on this mock → `{"id", "subscription":
///   {"endpoint", "expirationTime", "keys": {"p256dh", "auth"}}, "private_key"}` (201);
/// - `POST /gone` `{"tokens": ["<subscription id>"]}`: those subscriptions answer 410 from now on.
enum WebPushMockAdminAPI {
    static func routes(core: WebPushMockCore, origin: @escaping @Sendable () -> String) -> AdminRoutes {
        let subscribe = AdminRoutes.Route(.POST, "/subscriptions") { _ in .json(core.subscribe(origin: origin()), status: .created) }
        return core.adminRoutes(markingPath: "/gone", own: [subscribe]) { core.mark($0, status: 410) }
    }
}

extension WebPushMockCore: MockAdminControl {
    var armedFaults: WebPushMockFaults {
        shared.withLock { state in
            var faults = state.faults.armed
            let gone = state.marked.filter { $0.value == 410 }.keys.sorted()
            let notFound = state.marked.filter { $0.value == 404 }.keys.sorted()
            if !gone.isEmpty { faults.gone = gone }
            if !notFound.isEmpty { faults.notFound = notFound }
            return faults
        }
    }

    /// Disarms the counted faults and the delay (marked subscriptions stay marked until `reset`).
    func clearFaults() {
        shared.withLock { $0.faults = WebPushFaultBook() }
    }
}
