/// What one claim took from the queue, and whether it saw the end of every app's due
/// deliveries (`exhausted`) or was cut short by the limit or an app's room: a dispatcher that
/// treats a cut claim as "queue drained" would pause with work waiting.
public struct DueClaim: Sendable {
    public var records: [DeliveryRecord]
    public var exhausted: Bool

    public init(records: [DeliveryRecord], exhausted: Bool) {
        self.records = records
        self.exhausted = exhausted
    }
}
