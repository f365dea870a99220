import Testing
@testable import PushService

@Suite(.timeLimit(.minutes(5))) struct ConnectionLimiterTests {
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

    @Test func belowTheLimitEveryConnectionIsAdmittedFresh() {
        var limiter = Limiter(maximum: 3)
        let ids = Self.open(&limiter, ["a", "b", "c"])
        #expect(limiter.openCount == 3)
        #expect(limiter.idleCount == 0 && limiter.receivingCount == 0 && limiter.freshCount == 3)
        #expect(limiter.unfinishedOrder == [ids["a"]!, ids["b"]!, ids["c"]!])
    }

    @Test func atTheLimitTheConnectionIdleTheLongestMakesRoom() {
        var limiter = Limiter(maximum: 3)
        let ids = Self.open(&limiter, ["a", "b", "c"])
        // b, then a serve a request and are kept alive: b is idle the longest.
        for name in ["c", "b", "a"] { limiter.update(ids[name]!, to: .handling) }
        limiter.update(ids["b"]!, to: .idle)
        limiter.update(ids["a"]!, to: .idle)
        guard case .admittedClosing(let d, shed: let shed, was: .idle) = limiter.open("d") else {
            Issue.record("d was not admitted in place of an idle connection")
            return
        }
        #expect(shed == "b")
        #expect(limiter.openCount == 3)
        #expect(limiter.idleOrder == [ids["a"]!])
        #expect(limiter.unfinishedOrder == [d])
        // The shed connection's close, and any phase, reported later change nothing.
        limiter.closed(ids["b"]!)
        limiter.update(ids["b"]!, to: .idle)
        #expect(limiter.openCount == 3)
        #expect(limiter.open("e") == .admittedClosing(d + 1, shed: "a", was: .idle))
    }

    @Test func idleConnectionsGoFirstThenTheOneUnfinishedTheLongest() {
        var limiter = Limiter(maximum: 3)
        let ids = Self.open(&limiter, ["a", "b", "c"])
        // c is handled and kept alive; b, then a start sending and keep trickling.
        limiter.update(ids["c"]!, to: .handling)
        limiter.update(ids["c"]!, to: .idle)
        limiter.update(ids["b"]!, to: .receiving)
        limiter.update(ids["a"]!, to: .receiving)
        // Unfinished since their accept: a before b, whoever began sending first.
        #expect(limiter.unfinishedOrder == [ids["a"]!, ids["b"]!])
        // c is idle: it goes before anyone unfinished.
        #expect(limiter.open("d") == .admittedClosing(4, shed: "c", was: .idle))
        limiter.update(4, to: .handling)
        // None idle: a has been unfinished the longest, then b.
        #expect(limiter.open("e") == .admittedClosing(5, shed: "a", was: .receiving))
        #expect(limiter.open("f") == .admittedClosing(6, shed: "b", was: .receiving))
        // A silent newcomer grows old like any other: e (fresh) goes before f.
        #expect(limiter.open("g") == .admittedClosing(7, shed: "e", was: .fresh))
        #expect(limiter.openCount == 3)
        #expect(limiter.unfinishedOrder == [6, 7])
    }

    /// A client that sends its request at once is the youngest unfinished connection when it
    /// arrives: under a flood of silent clients arriving at the cap, the older silent ones go first.
    @Test func aNewClientOutlivesOlderSilentOnes() {
        var limiter = Limiter(maximum: 3)
        _ = Self.open(&limiter, ["s1", "s2", "s3"])
        guard case .admittedClosing(let good, shed: "s1", was: .fresh) = limiter.open("good") else {
            Issue.record("the oldest silent client should have made room")
            return
        }
        #expect(limiter.open("s4") == .admittedClosing(good + 1, shed: "s2", was: .fresh))
        limiter.update(good, to: .receiving)
        #expect(limiter.open("s5") == .admittedClosing(good + 2, shed: "s3", was: .fresh))
        limiter.update(good, to: .handling)
        #expect(limiter.unfinishedOrder == [good + 1, good + 2])
    }

    @Test func aConnectionKeepsItsPlaceWhileItStaysUnfinished() {
        // From its accept to its head to its body is one wait: reporting it again does not send
        // it back.
        var limiter = Limiter(maximum: 3)
        let ids = Self.open(&limiter, ["a", "b", "c"])
        for name in ["c", "b", "a", "c"] { limiter.update(ids[name]!, to: .receiving) }
        #expect(limiter.unfinishedOrder == [ids["a"]!, ids["b"]!, ids["c"]!])
        #expect(limiter.freshCount == 0 && limiter.receivingCount == 3)
        // Handled and receiving again (kept alive): now at the back.
        limiter.update(ids["a"]!, to: .handling)
        #expect(limiter.unfinishedOrder == [ids["b"]!, ids["c"]!])
        limiter.update(ids["a"]!, to: .receiving)
        #expect(limiter.unfinishedOrder == [ids["b"]!, ids["c"]!, ids["a"]!])
    }

    @Test func connectionsHandlingARequestAreNeverShed() {
        var limiter = Limiter(maximum: 2)
        let ids = Self.open(&limiter, ["a", "b"])
        limiter.update(ids["a"]!, to: .handling)
        #expect(limiter.open("c") == .admittedClosing(3, shed: "b", was: .fresh))
        limiter.update(3, to: .handling)
        // Both handling: the newcomer is refused and nothing is closed.
        #expect(limiter.open("d") == .refused)
        #expect(limiter.openCount == 2)
        // Once a response is out, that connection may go.
        limiter.update(3, to: .idle)
        #expect(limiter.open("e") == .admittedClosing(4, shed: "c", was: .idle))
    }

    @Test func aClosedConnectionFreesItsPlace() {
        var limiter = Limiter(maximum: 2)
        let ids = Self.open(&limiter, ["a", "b"])
        limiter.update(ids["a"]!, to: .handling)
        limiter.update(ids["b"]!, to: .handling)
        #expect(limiter.open("c") == .refused)
        // Closed mid-request (client gone, error): counted out all the same.
        limiter.closed(ids["a"]!)
        #expect(limiter.openCount == 1)
        #expect(limiter.open("d") == .admitted(3))
        limiter.update(3, to: .receiving)
        limiter.closed(ids["b"]!)
        limiter.closed(3)
        limiter.closed(3)  // twice: ignored
        #expect(limiter.openCount == 0 && limiter.idleCount == 0 && limiter.receivingCount == 0 && limiter.freshCount == 0)
    }

    @Test func aLongChurnNeverExceedsTheLimitOrLeaks() {
        // Many connections come, change phase and go at the limit; the counts and the order of
        // shedding hold throughout.
        var limiter = ConnectionLimiter<Int>(maximum: 50)
        var open: [Int: ConnectionLimiter<Int>.ID] = [:]
        var phases: [Int: RequestProgress.Phase] = [:]
        var generator = SystemRandomNumberGenerator()
        func count(_ phase: RequestProgress.Phase) -> Int { phases.values.filter { $0 == phase }.count }
        for name in 0..<5_000 {
            let idleBefore = count(.idle)
            switch limiter.open(name) {
            case .admitted(let id):
                open[name] = id
            case .admittedClosing(let id, let shed, let was):
                #expect(phases[shed] == was)
                #expect(was != .handling)
                #expect(was == .idle || idleBefore == 0, "a connection went while one was idle")
                open[shed] = nil
                phases[shed] = nil
                open[name] = id
            case .refused:
                #expect(count(.handling) == 50)
            }
            if open[name] != nil { phases[name] = .fresh }
            // Some connections change phase or close at random.
            if let (victim, id) = open.randomElement(using: &generator) {
                let choice = Int.random(in: 0..<4, using: &generator)
                if choice == 3 {
                    limiter.closed(id)
                    open[victim] = nil
                    phases[victim] = nil
                } else {
                    let phase: RequestProgress.Phase = [.idle, .receiving, .handling][choice]
                    limiter.update(id, to: phase)
                    phases[victim] = phase
                }
            }
            #expect(limiter.openCount == open.count)
            #expect(limiter.openCount <= 50)
            #expect(limiter.idleCount == count(.idle))
            #expect(limiter.receivingCount == count(.receiving))
            #expect(limiter.freshCount == count(.fresh))
        }
    }

    /// A connection whose client does not read its answer waits on its client like one that sends
    /// slowly: with none idle, whichever of them has waited the longest is closed; one handling a
    /// request never is.
    @Test func aConnectionNotReadingItsAnswerIsShedByHowLongItWaited() {
        var limiter = Limiter(maximum: 3)
        let ids = Self.open(&limiter, ["a", "b", "c"])
        for name in ["a", "b", "c"] { limiter.update(ids[name]!, to: .handling) }
        limiter.update(ids["b"]!, to: .sending)
        #expect(limiter.sendingCount == 1)
        guard case .admittedClosing(let d, shed: "b", was: .sending) = limiter.open("d") else {
            Issue.record("d was not admitted in place of b, which does not read")
            return
        }
        // c starts sending an answer its client does not read; d, new, waited less.
        limiter.update(ids["c"]!, to: .sending)
        #expect(limiter.unfinishedOrder == [d, ids["c"]!])
        #expect(limiter.open("e") == .admittedClosing(d + 1, shed: "d", was: .fresh))
        #expect(limiter.open("f") == .admittedClosing(d + 2, shed: "c", was: .sending))
    }
}
