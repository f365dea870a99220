import MockSupport

/// What fcm-mock's connections share under its lock: what every mock keeps, and its armed faults,
/// unregistered device tokens and the serial in the names it answers.
struct FCMMockState: MockState {
    typealias Failure = FCMMockError

    var stats = FCMMockStats()
    var connections = OpenConnections()
    var records = Recordings<RecordedMessage>()
    var accessTokens = AccessTokenLedger()
    var faults = FaultBook()
    var unregistered: Set<String> = []
    var nextMessageSerial: UInt64 = 0

    mutating func forgetFaultsAndMarks() {
        faults = FaultBook()
        unregistered.removeAll()
    }
}
