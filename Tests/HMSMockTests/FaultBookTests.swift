import Testing
@testable import HMSMock

/// Armed faults are spent one request at a time and add up; the delay is a setting, not a count.
@Suite(.timeLimit(.minutes(5))) struct FaultBookTests {
    @Test func countedFaultsAreSpentOneRequestEach() {
        var book = FaultBook()
        book.arm(HMSMockFaults(flowControl: .init(count: 2, retryAfter: 5), internalError: 1))
        #expect(book.takeFlowControl() == FaultBook.FlowControl(retryAfterSeconds: 5))
        #expect(book.takeFlowControl() == FaultBook.FlowControl(retryAfterSeconds: 5))
        #expect(book.takeFlowControl() == nil)
        #expect(book.takeInternalError() == true)
        #expect(book.takeInternalError() == false)
        #expect(book.isEmpty)
    }

    @Test func theTokenEndpointIsUnavailableBeforeItRefuses() {
        var book = FaultBook()
        book.arm(HMSMockFaults(refuseCredentials: 1, tokenEndpointUnavailable: 1))
        #expect(book.takeTokenEndpointFault() == .unavailable)
        #expect(book.takeTokenEndpointFault() == .refuseCredentials)
        #expect(book.takeTokenEndpointFault() == nil)
    }

    @Test func armingAddsAndTheAdminShapeShowsWhatIsLeft() {
        var book = FaultBook()
        book.arm(HMSMockFaults(internalError: 2, delayMilliseconds: 100))
        book.arm(HMSMockFaults(flowControl: .init(count: 1), internalError: 1))
        #expect(book.armed == HMSMockFaults(flowControl: .init(count: 1), internalError: 3, delayMilliseconds: 100))
        book.arm(HMSMockFaults(delayMilliseconds: 0))
        #expect(book.delayMilliseconds == nil)
    }

    @Test func negativeCountsArmNothing() {
        var book = FaultBook()
        book.arm(HMSMockFaults(flowControl: .init(count: -3), internalError: -1, delayMilliseconds: -5, refuseCredentials: -2))
        #expect(book.isEmpty)
    }
}
