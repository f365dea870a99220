import Testing
@testable import PushService

@Suite struct ConnectionLimiterTests {
    typealias Limiter = ConnectionLimiter<String>

    /// Opens `names` and returns their ids.
    static func open(_ limiter: inout Limiter, _ names: [String]) -> [String: Limiter.ID] {
        var ids: [String: Limiter.ID] = [:]
        for name in names {
            guard case .admitted(let id) = limiter.open(name) else {
                Issue.record("\(name) was not admitted")
                continue
            }
            ids[name] = id
        }
        return ids
    }

    @Test func belowTheLimitEveryConnectionIsAdmittedAndIdle() {
        var limiter = Limiter(maximum: 3)
        let ids = Self.open(&limiter, ["a", "b", "c"])
        #expect(limiter.openCount == 3)
        #expect(limiter.idleCount == 3)
        #expect(limiter.idleOrder == [ids["a"]!, ids["b"]!, ids["c"]!])
    }

    @Test func atTheLimitTheConnectionIdleTheLongestMakesRoom() {
        var limiter = Limiter(maximum: 3)
        let ids = Self.open(&limiter, ["a", "b", "c"])
        // a serves a request and is idle again: b is now idle the longest.
        limiter.requestStarted(ids["a"]!)
        limiter.responseFinished(ids["a"]!)
        guard case .admittedClosing(let d, idle: let shed) = limiter.open("d") else {
            Issue.record("d was not admitted in place of an idle connection")
            return
        }
        #expect(shed == "b")
        #expect(limiter.openCount == 3)
        #expect(limiter.idleOrder == [ids["c"]!, ids["a"]!, d])
        // The shed connection's close, reported later, changes nothing.
        limiter.closed(ids["b"]!)
        limiter.requestStarted(ids["b"]!)
        #expect(limiter.openCount == 3)
        #expect(limiter.open("e") == .admittedClosing(d + 1, idle: "c"))
    }

    @Test func connectionsWithRequestsInProgressAreNeverShed() {
        var limiter = Limiter(maximum: 2)
        let ids = Self.open(&limiter, ["a", "b"])
        limiter.requestStarted(ids["a"]!)
        #expect(limiter.open("c") == .admittedClosing(3, idle: "b"))
        limiter.requestStarted(3)
        // Both busy: the newcomer is refused and nothing is closed.
        #expect(limiter.open("d") == .refused)
        #expect(limiter.openCount == 2)
        // Once a response is out, that connection may go.
        limiter.responseFinished(3)
        #expect(limiter.open("e") == .admittedClosing(4, idle: "c"))
    }

    @Test func aClosedConnectionFreesItsPlace() {
        var limiter = Limiter(maximum: 2)
        let ids = Self.open(&limiter, ["a", "b"])
        limiter.requestStarted(ids["a"]!)
        limiter.requestStarted(ids["b"]!)
        #expect(limiter.open("c") == .refused)
        // Closed mid-request (client gone, error): counted out all the same.
        limiter.closed(ids["a"]!)
        #expect(limiter.openCount == 1)
        #expect(limiter.open("d") == .admitted(3))
        limiter.closed(ids["b"]!)
        limiter.closed(3)
        limiter.closed(3)  // twice: ignored
        #expect(limiter.openCount == 0 && limiter.idleCount == 0)
    }

    @Test func pipelinedRequestsKeepAConnectionBusyUntilTheLastResponse() {
        var limiter = Limiter(maximum: 2)
        let ids = Self.open(&limiter, ["a", "b"])
        let a = ids["a"]!
        limiter.requestStarted(a)
        limiter.requestStarted(a)  // the next head read before the first response is out
        limiter.responseFinished(a)
        #expect(limiter.idleOrder == [ids["b"]!])
        limiter.responseFinished(a)
        #expect(limiter.idleOrder == [ids["b"]!, a])
    }

    @Test func anAnswerWithoutARequestLeavesTheConnectionIdle() {
        // The 400 for a head that failed to parse is written with no head read.
        var limiter = Limiter(maximum: 2)
        let ids = Self.open(&limiter, ["a", "b"])
        limiter.responseFinished(ids["a"]!)
        #expect(limiter.idleOrder == [ids["a"]!, ids["b"]!])
        limiter.requestStarted(ids["a"]!)
        limiter.responseFinished(ids["a"]!)
        limiter.responseFinished(ids["a"]!)
        #expect(limiter.idleOrder == [ids["b"]!, ids["a"]!])
    }

    @Test func aLongChurnNeverExceedsTheLimitOrLeaks() {
        // Many connections come and go at the limit; the count stays exact throughout.
        var limiter = ConnectionLimiter<Int>(maximum: 50)
        var open: [Int: ConnectionLimiter<Int>.ID] = [:]
        var busy: Set<Int> = []
        var generator = SystemRandomNumberGenerator()
        for name in 0..<5_000 {
            switch limiter.open(name) {
            case .admitted(let id):
                open[name] = id
            case .admittedClosing(let id, let shed):
                #expect(!busy.contains(shed))
                open[shed] = nil
                open[name] = id
            case .refused:
                #expect(busy.count == 50)
            }
            // Some connections start, finish or close at random.
            if let (victim, id) = open.randomElement(using: &generator) {
                switch Int.random(in: 0..<3, using: &generator) {
                case 0:
                    if busy.insert(victim).inserted { limiter.requestStarted(id) }
                case 1:
                    if busy.remove(victim) != nil { limiter.responseFinished(id) }
                default:
                    limiter.closed(id)
                    open[victim] = nil
                    busy.remove(victim)
                }
            }
            #expect(limiter.openCount == open.count)
            #expect(limiter.openCount <= 50)
            #expect(limiter.idleCount == open.count - busy.count)
        }
    }
}
