/// What one claim took from the queue, and whether it saw the end of every app's due
/// deliveries (`exhausted`) or was cut short by the limit or an app's room: a dispatcher that
/// treats a cut claim as "queue drained" would pause with work waiting.
///
/// On a shared store a claim first puts back to pending the deliveries whose claim's lease ran
/// out (their relay died, or hung past its lease): `takenOver` says how many.
public struct DueClaim: Sendable {
    public var records: [DeliveryRecord]
    public var exhausted: Bool
    public var takenOver: Int

    public init(records: [DeliveryRecord], exhausted: Bool, takenOver: Int = 0) {
        self.records = records
        self.exhausted = exhausted
        self.takenOver = takenOver
    }
}
