import Crypto
import Foundation
import PushCore
import PushEngine
import StoreContract

/// The notifications API's side of the engine: stores accepted notifications (the fan-out takes
/// them from there) and reads their state.
struct Notifications: Sendable {
    let store: any RelayStore
    let clock: @Sendable () -> Int64
    /// After a notification is stored or cancelled (`NotificationFanOut.poke`).
    let poke: @Sendable () -> Void
    private let metrics = DeliveryMetrics.Handles()

    init(store: any RelayStore, clock: @escaping @Sendable () -> Int64, poke: @escaping @Sendable () -> Void) {
        self.store = store
        self.clock = clock
        self.poke = poke
    }

    /// What the `Idempotency-Key` protects: the request's bytes.
    static func requestHash(_ body: Data) -> String {
        SHA256.hash(data: body).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    /// Stores the notification, committed before this returns; a repeat of a key answers the first.
    func create(_ request: NotificationRequest, app: String, idempotencyKey: String?, body: Data) async throws
        -> (record: NotificationRecord, replayed: Bool)
    {
        let now = clock()
        let notification = NewNotification(
            appID: app, audience: request.audience, content: request.content.stored, collapseKey: request.content.collapseKey,
            sendAtMs: request.sendAtMs, localMinute: request.localTime?.minuteOfDay, pushesPerMinute: request.pushesPerMinute,
            idempotencyKey: idempotencyKey, requestHash: idempotencyKey.map { _ in Self.requestHash(body) }, createdAtMs: now)
        switch try await store.createNotification(notification) {
        case .created(let record):
            metrics.notification(app: app, state: "accepted")
            poke()
            return (record, false)
        case .repeated(let record):
            return (record, true)
        case .keyReused:
            throw APIError(
                status: .unprocessableContent, code: .invalidValue,
                message: "\"Idempotency-Key\" was used for another request body; use a new key for a new notification.")
        }
    }

    /// Cancels an open notification; one cancelled already is answered as it is.
    func cancel(app: String, id: Int64) async throws -> NotificationRecord {
        if let record = try await store.notification(app: app, id: id), record.state == .cancelled { return record }
        guard let record = try await store.cancelNotification(app: app, id: id, nowMs: clock()) else {
            throw APIError.notFound("notification")
        }
        guard record.state == .cancelled else {
            throw APIError.invalidValue(
                "notification_id", "names a notification that is \(record.state.rawValue): it can no longer be cancelled")
        }
        metrics.notification(app: app, state: NotificationState.cancelled.rawValue)
        poke()
        return record
    }
}
