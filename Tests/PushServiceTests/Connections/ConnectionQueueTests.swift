import Testing
@testable import PushService

@Suite(.timeLimit(.minutes(5))) struct ConnectionQueueTests {
    @Test func keepsTheOrderConnectionsBecameIdleIn() {
        var queue = ConnectionQueue()
        for id: UInt64 in 1...4 { queue.append(id) }
        #expect(queue.ordered == [1, 2, 3, 4])
        #expect(queue.first == 1)
        // Busy, then idle again: now idle the shortest.
        queue.remove(2)
        queue.append(2)
        #expect(queue.ordered == [1, 3, 4, 2])
        // Appending a queued id moves it to the back rather than queueing it twice.
        queue.append(3)
        #expect(queue.ordered == [1, 4, 2, 3])
        #expect(queue.count == 4)
    }

    @Test func removesFromTheFrontTheMiddleAndTheBack() {
        var queue = ConnectionQueue()
        for id: UInt64 in 1...5 { queue.append(id) }
        queue.remove(1)
        queue.remove(3)
        queue.remove(5)
        #expect(queue.ordered == [2, 4])
        queue.remove(42)  // not queued: ignored
        #expect(queue.removeFirst() == 2)
        #expect(queue.removeFirst() == 4)
        #expect(queue.removeFirst() == nil)
        #expect(queue.isEmpty)
        // Usable again once empty.
        queue.append(7)
        #expect(queue.ordered == [7])
        #expect(queue.contains(7) && !queue.contains(2))
    }
}
