import Testing
@testable import FCMMock

/// Armed faults are spent one request at a time, in a fixed order, and add up.
@Suite(.timeLimit(.minutes(5))) struct FaultBookTests {
    @Test func countedFaultsAreSpentInOrder() {
        var book = FaultBook()
        book.arm(FCMMockFaults(quotaExceeded: .init(count: 1, retryAfter: 3), unavailable: 1, internal: 1, dropConnections: 1))
        #expect(book.takeDrop() == true)
        #expect(book.takeDrop() == false)
        #expect(book.takeAnswerFault() == .quotaExceeded(retryAfterSeconds: 3))
        #expect(book.takeAnswerFault() == .unavailable)
        #expect(book.takeAnswerFault() == .internal)
        #expect(book.takeAnswerFault() == nil)
        #expect(book.isEmpty)
    }

    @Test func armingAddsToWhatIsArmedAndTheAdminShapeShowsWhatIsLeft() {
        var book = FaultBook()
        book.arm(FCMMockFaults(unavailable: 2, tokenEndpointUnavailable: 1))
        book.arm(FCMMockFaults(unavailable: 1, senderIDMismatch: 1))
        #expect(book.armed == FCMMockFaults(unavailable: 3, senderIDMismatch: 1, tokenEndpointUnavailable: 1))
        #expect(book.takeTokenEndpointFault() == true)
        #expect(book.takeTokenEndpointFault() == false)
        for _ in 0..<3 { #expect(book.takeAnswerFault() == .unavailable) }
        #expect(book.takeAnswerFault() == .senderIDMismatch)
        #expect(book.armed == FCMMockFaults())
    }

    @Test func negativeCountsArmNothing() {
        var book = FaultBook()
        book.arm(FCMMockFaults(unavailable: -5, dropConnections: -1))
        #expect(book.isEmpty)
    }
}
