import MockSupport

/// What hms-mock's connections share under its lock: what every mock keeps, and its armed faults,
/// invalid device tokens and the serial in its request ids.
struct HMSMockState: MockState {
    typealias Failure = HMSMockError

    var stats = HMSMockStats()
    var connections = OpenConnections()
    var records = Recordings<RecordedMessage>()
    var accessTokens = AccessTokenLedger()
    var faults = FaultBook()
    var invalidTokens: Set<String> = []
    var nextRequestSerial: UInt64 = 0

    mutating func forgetFaultsAndMarks() {
        faults = FaultBook()
        invalidTokens.removeAll()
    }
}
